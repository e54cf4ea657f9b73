"""From the global event log to each player's list of matches and inbox.

One pass takes the projector's turn (while one process projects, the others skip theirs),
reads the next page of the log, and for every match of the page that players hold a seat in,
compares the match now (status, whose turn) with the row the player's list has for it. A change
becomes the new row and, when it matters to the player, a notice: the match started, it is
their turn, the match ended. Rows, notices and the cursor's move commit together, so a crash
projects the page again and a notice is added once.

Matches of every table size are projected alike: a match's stream is known by
``match_streams.match_id_of``, and each kind of state is read for the same few facts
(``Progress``). Players hold seats by their tokens, which the registry keeps for every seat of
every match. At three or four seats two seats may be on turn at once: a player's row names
their own seat as the turn when it is theirs.

The row is the match as it is now, not as it was at the page's end, so the pages that follow
find nothing new to say. The notices walk every state the match went through since the row
the list had: each turn change the rules made is a notice, in order, even one the turn has
already moved on from (the turn passed to a player and back within one pass). A push relay
hears only the news between the row it had and the match now: it wakes a phone, where the
inbox is the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec
from cachetools import LRUCache

from domain.match_rules import MatchRules
from service.matches.use_cases import MatchService
from service.players.relay import RELAYED, relay_deliveries
from service.ports.event_store import EventStore
from service.ports.match_registry import RegisteredMatch
from service.ports.players import (
    MatchStatus,
    NewNotice,
    NoticeKind,
    PlayerMatch,
    PlayerProjection,
    PlayerSeat,
)
from service.store.match_streams import (
    THREE_OR_FOUR_SEATS,
    Loaded,
    MatchStreams,
    StreamKind,
    kind_of,
    match_id_of,
)

STATES_KEPT = 10_000  # matches whose last projected state a process keeps at hand


class NoticeBody(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What an inbox message's data holds."""

    kind: NoticeKind
    match_id: str | None = None
    seat: int | None = None  # the player's own seat
    winner: int | None = None  # who won, when a match ended: a seat (a team at four seats)
    invite_code: str | None = None  # to join, when invited
    from_player: str | None = None  # the display name of who invited or offered
    expires_at: str | None = None
    rematch_of: str | None = None  # the finished match a rematch follows


def notice(player_id: str, body: NoticeBody) -> NewNotice:
    return NewNotice(
        player_id=player_id,
        kind=body.kind,
        match_id=body.match_id,
        payload=msgspec.json.encode(body),
    )


class Projector:
    def __init__(
        self,
        store: EventStore,
        projection: PlayerProjection,
        matches: MatchService,
        *,
        page_size: int = 500,
    ) -> None:
        self._store = store
        self._projection = projection
        self._matches = matches
        self.page_size = page_size
        self._streams: dict[StreamKind[Any, Any], MatchStreams[Any, Any]] = {
            matches.streams.kind: matches.streams,
            THREE_OR_FOUR_SEATS: MatchStreams(store, THREE_OR_FOUR_SEATS),
        }
        # Each match as last projected: the next pass walks on from it without a read.
        self._states: LRUCache[str, Loaded[Any]] = LRUCache(STATES_KEPT)

    async def project_once(self) -> int | None:
        """Project the next page of the log: how many events it passed (0: nothing to do),
        or None if another process holds the turn."""
        async with self._projection.turn() as turn:
            if turn is None:
                return None
            page = await self._store.read_all(after_position=turn.cursor, limit=self.page_size)
            if not page:
                return 0
            latest: dict[str, int] = {}
            kinds: dict[str, StreamKind[Any, Any]] = {}
            for record in page:
                match_id = match_id_of(record.stream_id)
                kind = kind_of(record.stream_id)
                if match_id is not None and kind is not None and kind in self._streams:
                    latest[match_id] = record.position
                    kinds[match_id] = kind
            seats = await turn.seats(latest) if latest else []
            if seats:
                known = {(r.player_id, r.match_id): r for r in await turn.known(latest)}
                rows, notices, relayed = await self._changes(seats, known, latest, kinds)
                await turn.save(rows, notices)
                # The relays' deliveries commit with the notices: added once, never lost.
                if relayed and (hooks := await turn.relay_hooks()):
                    await turn.add_deliveries(relay_deliveries(hooks, relayed))
            await turn.move_cursor(page[-1].position)
        return len(page)

    async def _changes(
        self,
        seats: Sequence[PlayerSeat],
        known: dict[tuple[str, str], PlayerMatch],
        latest: dict[str, int],
        kinds: dict[str, StreamKind[Any, Any]],
    ) -> tuple[list[PlayerMatch], list[NewNotice], list[tuple[PlayerMatch, str]]]:
        rows: list[PlayerMatch] = []
        notices: list[NewNotice] = []
        relayed: list[tuple[PlayerMatch, str]] = []
        by_match: dict[str, list[PlayerSeat]] = {}
        for seat in seats:
            by_match.setdefault(seat.match_id, []).append(seat)
        for match_id, held in by_match.items():
            befores = [known.get((seat.player_id, match_id)) for seat in held]
            since = min(before.version if before is not None else 0 for before in befores)
            record = await self._matches.match(match_id)
            steps = await self._steps(self._streams[kinds[match_id]], match_id, since)
            for seat, before in zip(held, befores, strict=True):
                row = _row(seat, record, steps[-1], latest[match_id])
                if before is not None and (before.version, before.status) == (
                    row.version,
                    row.status,
                ):
                    continue
                rows.append(row)
                seen = before.version if before is not None else 0
                passed = before
                for step in steps:
                    if step.version <= seen:
                        continue
                    now = row if step is steps[-1] else _row(seat, record, step, row.position)
                    bodies = _notices(passed, now, step.winner)
                    notices += [notice(seat.player_id, body) for body in bodies]
                    passed = now
                latest_news = _notices(before, row, steps[-1].winner)
                relayed += [(row, body.kind) for body in latest_news if body.kind in RELAYED]
        return rows, notices, relayed

    async def _steps(
        self, streams: MatchStreams[Any, Any], match_id: str, since: int
    ) -> list[Progress]:
        """The match at ``since`` and after each event since, the last one now."""
        start = self._states.get(match_id)
        if start is None or start.version != since:
            # Another process projected last (or this one started since): read it as it was.
            start = await streams.load_at(match_id, since) if since else streams.empty()
        steps = [start]
        for version, event in await streams.read_events(match_id, after_version=start.version):
            steps.append(Loaded(streams.kind.fold([event], steps[-1].state), version))
        self._states[match_id] = steps[-1]
        return [progress(step, streams.kind.rules) for step in steps]


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """What a player's list tells of a match at one version, at any table size: ``turns``
    are the seats on turn, ``winner`` the side that won (a seat; a team at four seats)."""

    version: int
    over: bool
    turns: tuple[int, ...]
    deadline: datetime | None
    winner: int | None


def progress(loaded: Loaded[Any], rules: MatchRules[Any, Any]) -> Progress:
    state = loaded.state
    deadline = rules.deadline(state)
    return Progress(
        version=loaded.version,
        over=rules.over(state),
        turns=rules.turns(state),
        # A deadline only while someone must decide: a clock with nobody on it has none.
        deadline=deadline.due_at if deadline is not None and deadline.seat is not None else None,
        winner=rules.winner(state),
    )


def _row(seat: PlayerSeat, record: RegisteredMatch, step: Progress, position: int) -> PlayerMatch:
    status, turn, deadline = _status(record, step, seat.seat)
    return PlayerMatch(
        player_id=seat.player_id,
        match_id=seat.match_id,
        seat=seat.seat,
        status=status,
        turn=turn,
        version=step.version,
        position=position,
        deadline=deadline,
    )


def _status(
    record: RegisteredMatch, step: Progress, seat: int
) -> tuple[MatchStatus, int | None, datetime | None]:
    status: MatchStatus = "in_progress"
    if not record.full:
        status = "waiting"
    elif step.over:
        status = "finished"
    if status != "in_progress":
        return status, None, None
    # The player's own seat when it is on turn (two seats may be, at four seats).
    turn = seat if seat in step.turns else next(iter(step.turns), None)
    return status, turn, step.deadline


def _notices(before: PlayerMatch | None, row: PlayerMatch, winner: int | None) -> list[NoticeBody]:
    was = before.status if before is not None else "waiting"
    kinds: list[NoticeKind] = []
    if row.status != "waiting" and was == "waiting":
        kinds.append("match_started")
    moved_to_me = before is None or before.turn != row.seat or before.status != "in_progress"
    if row.status == "in_progress" and row.turn == row.seat and moved_to_me:
        kinds.append("your_turn")
    if row.status == "finished" and was != "finished":
        kinds.append("match_ended")
    return [
        NoticeBody(
            kind=kind,
            match_id=row.match_id,
            seat=row.seat,
            winner=winner if kind == "match_ended" else None,
        )
        for kind in kinds
    ]
