"""The use cases of three- and four-player matches, with no HTTP in them: create one, seat
an invited player, handle a seat's command, and read its events as a seat may see them.

Seats, tokens, invites and the server secret live in the same match registry as two-player
matches (a match with more than two seats is one of these); the events live in a match
stream of their own kind (``THREE_OR_FOUR_SEATS`` in ``service.store.match_streams``). As in a
two-player match, the cut and every deal are server steps appended with the command that makes
them due, each with its seed from the match's committed seed chain and every seat's entropy:
one seed per deal, so one per table in the four-player game. Bot seats play within the request
of the person whose move they answer.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import cast

import msgspec

from domain import RuleOptions, view
from domain.commands import Adjudicate, SeatCommand, TimeOut
from domain.formats import (
    CutSeats,
    DealTable,
    FormatCommand,
    FormatEvent,
    FormatState,
    Players,
    RoundScored,
    StartFormatMatch,
    TableEvent,
    decide_format,
    fold_format,
    format_legal_actions,
    redact_format_events,
)
from domain.formats.commands import StampClocks
from service.bots.policy import bot_for
from service.errors import (
    IdempotencyKeyReused,
    InvalidParameter,
    StaleVersion,
    VersionConflict,
    WaitingForOpponent,
)
from service.fairness.events import FairnessView
from service.fairness.log import FairnessLog, cut_seed, deal_seed, view_of_slots
from service.formats.fairness import format_fairness_slots, touches_format_fairness
from service.matches import tokens
from service.matches.tables import new_table
from service.matches.use_cases import CommandRequest, CreatedMatch, require_in_time
from service.ports import event_store
from service.ports.clock import Clock, system_clock
from service.ports.match_registry import MatchRegistry, RegisteredMatch
from service.store.match_streams import Loaded, MatchStreams

# A bot answers within its person's request; a hand of two bots is some sixty moves.
BOT_MOVES_PER_APPEND = 2_000


class CreatedFormatMatch(msgspec.Struct, frozen=True):
    created: CreatedMatch
    invite_codes: dict[int, str]  # by seat


class FormatMatchService:
    def __init__(
        self,
        streams: MatchStreams[FormatState, FormatEvent],
        registry: MatchRegistry,
        fairness: FairnessLog,
        *,
        new_match_id: Callable[[], str] | None = None,
        clock: Clock = system_clock,
    ) -> None:
        """``clock`` stamps each command with the time it was received (the turn clocks)."""
        self.streams = streams
        self.registry = registry
        self.fairness = fairness
        self.clock = clock
        self._new_match_id = new_match_id or (lambda: str(uuid.uuid4()))

    async def create_match(
        self,
        *,
        players: Players,
        options: RuleOptions,
        invite_seats: Sequence[int] = (),
        bots: Sequence[str | None] = (),
        external_ref: str | None = None,
        operator_id: str | None = None,
        external_player_ids: Sequence[str | None] = (),
    ) -> CreatedFormatMatch:
        invited = _checked_invites(invite_seats, players)
        new = new_table(
            match_id=self._new_match_id(),
            players=players,
            bots=bots,
            invited=invited,
            external_ref=external_ref,
            operator_id=operator_id,
            external_player_ids=external_player_ids,
        )
        match = new.match
        invite_codes = {seat: tokens.new_invite_code() for seat in invited}
        codes = list(invite_codes.items())
        first = codes[0] if codes else None
        await self.registry.create(
            match.match_id,
            external_ref=external_ref,
            server_secret=match.server_secret,
            seats=list(match.seats),
            invite_code_hash=tokens.secret_hash(first[1]) if first else None,
            invite_seat=first[0] if first else None,
            operator_id=operator_id,
        )
        for seat, code in codes[1:]:
            await self.registry.add_invite(match.match_id, tokens.secret_hash(code), seat)
        created = await self.start(match, options, new.tokens)
        return CreatedFormatMatch(created, invite_codes)

    async def start(
        self,
        match: RegisteredMatch,
        options: RuleOptions,
        seat_tokens: dict[int, str],
        *,
        opened: bool = False,
    ) -> CreatedMatch:
        """Open the fairness stream of a registered match (unless ``opened`` already) and
        append its first events."""
        if not opened:
            await self.fairness.open(match)
        start = self.streams.empty()
        players = cast(Players, len(match.seats))  # a registered match of more than two
        asked = StartFormatMatch(players=players, options=options)
        await self._append(match, start, decide_format(start.state, asked), now=self.clock())
        return CreatedMatch(match.match_id, seat_tokens, None, self.fairness.commitment(match))

    async def after_join(self, match: RegisteredMatch) -> None:
        """The cut waited for the last invited seat: make it, if this join filled the match."""
        loaded = await self.streams.load(match.match_id)
        with contextlib.suppress(event_store.ConcurrencyConflict):  # another join cut first
            await self._append(match, loaded, [], now=self.clock())

    async def load(self, match: RegisteredMatch) -> Loaded[FormatState]:
        return await self.streams.load(match.match_id)

    async def handle(
        self,
        match: RegisteredMatch,
        seat: int,
        command: SeatCommand,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Loaded[FormatState]:
        """Decide and append ``command`` for ``seat``, then every bot move it makes due. Under
        an ``idempotency_key`` a retry is answered as two-player commands are: with the match
        right after the first attempt's append (the command and the bot moves it carried)."""
        received_at = self.clock()
        if not match.full:
            raise WaitingForOpponent("an invited player has not joined yet")
        loaded = await self.streams.load(match.match_id)
        key = fingerprint = None
        if idempotency_key is not None:
            key = command_key(match.match_id, seat, idempotency_key)
            fingerprint = CommandRequest(command, idempotency_key, if_match).fingerprint(seat)
            # Looked up after loading, for the reason ``MatchService.handle`` gives.
            first = await self.streams.store.find_idempotent(key)
            if first is not None:
                return await self._answer_again(match, first, fingerprint)
        if if_match is not None and if_match != loaded.version:
            raise StaleVersion(
                f"the match is at version {loaded.version}, not {if_match}; load the view again"
            )
        _require_in_time(loaded.state, seat, command, received_at)
        events = _decided(loaded.state, command, seat, received_at)
        try:
            return await self._append(match, loaded, events, key, fingerprint, now=received_at)
        except event_store.ConcurrencyConflict as conflict:
            error = StaleVersion if if_match is not None else VersionConflict
            raise error(
                f"the match moved on to version {conflict.current} while this command was "
                "handled; nothing was applied"
            ) from None

    async def time_out(self, match_id: str) -> Loaded[FormatState] | None:
        """The timeout of the seat whose deadline is the match's next, with its default move
        (or its forfeit), if that deadline has passed; None when nothing is due (a bot's seat
        never times out) or another command got there first. Appended at the loaded version,
        like any command."""
        match = await self.registry.get(match_id)
        if match is None:
            return None
        loaded = await self.streams.load(match_id)
        deadline, now = loaded.state.deadline, self.clock()
        if deadline is None or deadline.seat is None or deadline.due_at is None:
            return None
        if now < deadline.due_at or match.seats[deadline.seat].bot is not None:
            return None
        events = decide_format(loaded.state, TimeOut(seat=deadline.seat, at=now))
        try:
            return await self._append(match, loaded, events, now=now)
        except event_store.ConcurrencyConflict:
            return None

    async def append_decided(
        self, match: RegisteredMatch, loaded: Loaded[FormatState], events: list[FormatEvent]
    ) -> Loaded[FormatState]:
        """``events`` the server decided (an ending) appended at ``loaded``'s version."""
        return await self._append(match, loaded, events, now=self.clock())

    async def adjudicate(self, match: RegisteredMatch, verdict: Adjudicate) -> Loaded[FormatState]:
        """An operator's ``verdict``, decided and appended at the version loaded."""
        loaded = await self.streams.load(match.match_id)
        events = decide_format(loaded.state, verdict)
        try:
            return await self.append_decided(match, loaded, events)
        except event_store.ConcurrencyConflict as conflict:
            raise VersionConflict(
                f"the match moved on to version {conflict.current} while this was handled; "
                "nothing was applied"
            ) from None

    async def events(
        self, match: RegisteredMatch, seat: int | None, *, after_version: int
    ) -> list[tuple[int, FormatEvent]]:
        """The events after ``after_version`` as ``seat`` (None: a spectator) may see them now.
        Redacting an event needs only what follows it, so only those events are read: a live
        stream reads what is new, not the whole match, at each wake-up."""
        after = max(after_version, 0)
        events = await self.streams.read_events(match.match_id, after_version=after)
        return redact_format_events(events, seat)

    async def _answer_again(
        self, match: RegisteredMatch, first: event_store.IdempotentAppend, fingerprint: bytes
    ) -> Loaded[FormatState]:
        stream = self.streams.stream_id(match.match_id)
        if first.fingerprint != fingerprint or first.result.stream_id != stream:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used for a different command"
            )
        return await self.streams.load_at(match.match_id, first.result.last_version)

    async def _append(
        self,
        match: RegisteredMatch,
        start: Loaded[FormatState],
        events: list[FormatEvent],
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
        *,
        now: datetime | None = None,
    ) -> Loaded[FormatState]:
        """``events`` with the server steps and bot moves they make due, appended together,
        then, received ``now``, the turn clocks of the tables where they were made restarted.
        Bots that play on while a person sits out (or two bots' hands end at the wall, again
        and again) commit every ``BOT_MOVES_PER_APPEND`` moves, so nothing is left waiting on
        a bot that nobody will wake. An idempotency key goes with the first append: a retry
        that finds it taken meanwhile is answered with the first attempt's state."""
        state = fold_format(events, start.state)
        levels = {s.seat: s.bot for s in match.seats if s.bot is not None}
        touched = _tables_of(events)
        stamped = now is None
        while True:
            step: FormatCommand | None = self._system_step(state, match) or _bot_move(state, levels)
            if step is None and not stamped and now is not None:
                step = _stamp(state, touched, now)
                stamped = step is None
            if step is not None and len(events) < BOT_MOVES_PER_APPEND:
                more = decide_format(state, step)
                state = fold_format(more, state)
                events += more
                if type(step) is StampClocks:
                    stamped = True
                else:
                    touched |= _tables_of(more)
                continue
            if events:
                expected = start.version + len(events)
                start, result = await self.streams.append(
                    match.match_id,
                    start,
                    events,
                    state=state,
                    idempotency_key=idempotency_key,
                    fingerprint=fingerprint,
                )
                if result.last_version != expected:
                    return start  # the first attempt under this key appended (and synced)
                if touches_format_fairness(events):
                    await self.sync_fairness(match, start.state)
                idempotency_key = fingerprint = None
            if step is None:
                return start
            events = []

    def fairness_view(self, match: RegisteredMatch, state: FormatState) -> FairnessView:
        """The fairness summary at ``state``: what the fairness stream holds once synced."""
        links = self.fairness.links
        slots = tuple(format_fairness_slots(state, links))
        return view_of_slots(match.server_secret, tuple(match.entropy), slots, links)

    async def sync_fairness(self, match: RegisteredMatch, state: FormatState) -> None:
        """Write the fairness records due at ``state`` (``service.formats.fairness``)."""
        slots = format_fairness_slots(state, self.fairness.links)
        await self.fairness.sync_slots(match, slots)

    def _system_step(
        self, state: FormatState, match: RegisteredMatch
    ) -> CutSeats | DealTable | None:
        due = format_legal_actions(state, None)
        if not due:
            return None
        links = self.fairness.links
        if isinstance(due[0], CutSeats):
            # The cut waits for every seat, so every invited player's entropy is in it.
            return CutSeats(seed=cut_seed(match, links)) if match.full else None
        return DealTable(seed=deal_seed(match, state.deals + 1, links))


def _decided(
    state: FormatState, command: SeatCommand, seat: int, now: datetime
) -> list[FormatEvent]:
    """``command`` of ``seat``, decided; a decision that ends the round first has the seat's
    table stamped (its time charged to the seat's bank), since the round's end replaces the
    table, clock and all. (A timeout spends the bank itself.)"""
    events = decide_format(state, command)
    table = state.table_of(seat)
    if table is None or not any(type(event) is RoundScored for event in events):
        return events
    stamped = _stamp(state, {table}, now)
    if stamped is None:
        return events
    charged = decide_format(state, stamped)
    return [*charged, *decide_format(fold_format(charged, state), command)]


def _tables_of(events: list[FormatEvent]) -> set[int]:
    return {event.table for event in events if type(event) is TableEvent}


def _stamp(state: FormatState, touched: set[int], now: datetime) -> StampClocks | None:
    """The clocks to restart at ``now``: each table of the round where something happened."""
    tables = sorted(index for index in touched if index < len(state.tables))
    if not state.options.turn_seconds or not tables or state.ending is not None:
        return None
    return StampClocks(at=now, tables=tables)


def _require_in_time(state: FormatState, seat: int, command: SeatCommand, at: datetime) -> None:
    """As for two players, against the clock of the seat's table."""
    place = state.place_of(seat)
    if place is not None:
        index, table_seat = place
        require_in_time(state.tables[index].state, table_seat, command, at, named=seat)


def command_key(match_id: str, seat: int, key: str) -> str:
    """How the event store keeps a seat's Idempotency-Key: per match and seat, as for a
    two-player command (match ids never repeat, so the two never meet)."""
    return f"command:{match_id}:{seat}:{key}"


def _bot_move(state: FormatState, levels: dict[int, str]) -> SeatCommand | None:
    """The move of the first bot seat with something to do, chosen on its table's view."""
    for seat, level in levels.items():
        index = state.table_of(seat)
        if index is None or not format_legal_actions(state, seat):
            continue
        table = state.tables[index]
        table_seat = table.table_seat(seat)
        assert table_seat is not None
        chosen = bot_for(level).choose(view(table.state, table_seat))
        if not isinstance(chosen, SeatCommand):
            raise TypeError(f"a {level} bot named a command no seat may send")
        return msgspec.structs.replace(chosen, seat=seat)
    return None


def _checked_invites(invite_seats: Sequence[int], players: int) -> list[int]:
    invited = sorted(set(invite_seats))
    if len(invited) != len(invite_seats) or any(s not in range(players) for s in invited):
        raise InvalidParameter(f"invite_seats are distinct seats from 0 to {players - 1}")
    return invited
