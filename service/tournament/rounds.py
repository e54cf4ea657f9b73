"""Rounds: a batch of an operator's matches made in one request, all or none, at most once.

A match of a round has two, three or four seats (``players``), each with its tournament id and
bot, if any. Every match of a round shares the round's rule options and ``start_at`` (when
their clocks start, where matches have clocks). A round is checked whole before anything is
stored: one match that cannot be made refuses the round, and nothing is created.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import datetime

import msgspec

from domain import RuleOptions
from domain.errors import MatchOver
from service.bots.seating import bot_levels
from service.errors import InvalidRound, RoundNotFound
from service.matches.adjudication import adjudicate
from service.matches.idempotent import IdempotentCreations
from service.matches.use_cases import CreatedMatch, MatchService, RoundMatch, RoundRequest
from service.ports.match_registry import RoundInfo, RoundQuery
from service.tournament.matches import decode_cursor, encode_cursor
from service.tournament.round_start import move_start

MAX_MATCHES = 256
SEATS = (2, 3, 4)  # the table sizes a round's match may have


class CreatedRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    start_at: datetime | None
    matches: list[CreatedMatch]  # in the order they were asked for


class RoundPage(msgspec.Struct, frozen=True, kw_only=True):
    rounds: list[RoundInfo]
    next: str | None  # pass as ``cursor`` for the following page; None: there is no more


class Cancelled(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    cancelled: bool  # False: it had already ended, and keeps its ending


class Rounds:
    def __init__(self, matches: MatchService, creations: IdempotentCreations) -> None:
        self._matches = matches
        self._creations = creations

    async def create(
        self,
        operator_id: str,
        *,
        options: RuleOptions,
        start_at: datetime | None,
        matches: Sequence[RoundMatch],
        idempotency_key: str | None,
        request: object,
    ) -> CreatedRound:
        """``request`` is what a retry with ``idempotency_key`` must repeat (the body)."""
        _check(matches)
        key = idempotency_key

        async def create() -> CreatedRound:
            round_id = str(uuid.uuid4()) if key is None else _round_id(operator_id, key)
            asked = RoundRequest(
                round_id=round_id,
                operator_id=operator_id,
                options=options,
                start_at=start_at,
                matches=matches,
            )
            found = None if key is None else await self._matches.registry.round(round_id)
            if found is not None:
                # An earlier request with this key and body registered the round and never
                # answered (the key's claim lapsed, or it failed part way): finish it.
                made = await self._matches.resume_round(asked, found.match_ids)
            else:
                if start_at is not None:  # a retry's answer stands after the start
                    _check_start(start_at, self._matches.clock(), matches)
                made = await self._matches.create_round(asked)
            return CreatedRound(round_id=round_id, start_at=start_at, matches=made)

        return await self._creations.once(
            scope=operator_id,
            key=idempotency_key,
            request=["round", request],
            create=create,
            answer=CreatedRound,
        )

    async def get(self, operator_id: str, round_id: str) -> RoundInfo:
        found = await self._matches.registry.round(round_id)
        if found is None or found.operator_id != operator_id:
            raise RoundNotFound(f"you have no round {round_id}")
        return found

    async def move_start(self, operator_id: str, round_id: str, at: datetime | None) -> datetime:
        """Start the round now (``at`` None) or at ``at``, while it has not started."""
        return await move_start(self._matches, await self.get(operator_id, round_id), at)

    async def page(
        self,
        operator_id: str,
        *,
        created_from: datetime | None = None,
        created_before: datetime | None = None,
        cursor: str | None = None,
        limit: int = 100,
    ) -> RoundPage:
        """The operator's rounds in creation order, ``limit`` at most."""
        found = await self._matches.registry.operator_rounds(
            operator_id,
            RoundQuery(
                created_from=created_from,
                created_before=created_before,
                after=None if cursor is None else decode_cursor(cursor),
                limit=limit,
            ),
        )
        last = found[-1] if len(found) == limit else None
        return RoundPage(
            rounds=found,
            next=None if last is None else encode_cursor(last.created_at, last.round_id),
        )

    async def cancel(self, operator_id: str, round_id: str, reason: str) -> list[Cancelled]:
        """Void every match of the round still being played (``match_ended``, no winner, for
        ``reason``), each like an operator's adjudication; a match already over keeps its
        ending. Safe to repeat: a second call finds them all ended."""
        found = await self.get(operator_id, round_id)
        return [await self._cancel(operator_id, match_id, reason) for match_id in found.match_ids]

    async def _cancel(self, operator_id: str, match_id: str, reason: str) -> Cancelled:
        match = await self._matches.match(match_id)
        loaded = await self._matches.load(match)
        if self._matches.rules_for(match).over(loaded.state):
            return Cancelled(match_id=match_id, cancelled=False)
        try:
            await adjudicate(
                self._matches, match_id, operator_id, verdict="void", seat=None, reason=reason
            )
        except MatchOver:  # it ended while this was decided
            return Cancelled(match_id=match_id, cancelled=False)
        return Cancelled(match_id=match_id, cancelled=True)


def _round_id(operator_id: str, key: str) -> str:
    """The round a key makes, the same on every retry (a one-way hash: it does not give the
    key, which seals the answer)."""
    digest = hashlib.sha256(f"gin round\0{operator_id}\0{key}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def _check_start(start_at: datetime, now: datetime, matches: Sequence[RoundMatch]) -> None:
    """A start is a time to come, and bots, which play only when woken by a move, need a
    person's move to wake them after it: a round with a start has none."""
    if start_at.tzinfo is None:
        raise InvalidRound("clocks_start_at needs a time zone offset (such as Z)")
    if start_at <= now:
        raise InvalidRound(
            f"clocks_start_at {start_at.isoformat()} has passed (the server's time is "
            f"{now.isoformat()}): leave it out to start the clocks at once"
        )
    for match in matches:
        bot_levels(match.bots, None, seats=match.players)  # a wrong seating says so first
    if any(level is not None for match in matches for level in match.bots):
        raise InvalidRound("a round with clocks_start_at has no bot seats")


def _check(matches: Sequence[RoundMatch]) -> None:
    if not 1 <= len(matches) <= MAX_MATCHES:
        raise InvalidRound(f"a round has 1 to {MAX_MATCHES} matches, not {len(matches)}")
    for n, match in enumerate(matches):
        if match.players not in SEATS:
            raise InvalidRound(f"match {n} has {match.players} players: a match has 2, 3 or 4")
        by_seat = (("external player ids", match.external_player_ids), ("bots", match.bots))
        for what, given in by_seat:
            if len(given) > match.players:
                raise InvalidRound(f"match {n} has {match.players} seats, not {len(given)} {what}")
    refs = Counter(m.external_ref for m in matches if m.external_ref is not None)
    repeated = sorted(ref for ref, count in refs.items() if count > 1)
    if repeated:
        raise InvalidRound(f"external refs repeat within the round: {', '.join(repeated)}")
