"""Playing: a seat's command decided on the cached state and appended at its version, and its
retries."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from domain.commands import Resign, SeatCommand
from domain.errors import DomainError
from domain.match_rules import MatchRules
from service.errors import (
    DeadlinePassed,
    IdempotencyKeyReused,
    MatchNotStarted,
    StaleVersion,
    VersionConflict,
    WaitingForOpponent,
)
from service.fairness.log import touches_fairness
from service.matches.service_base import MatchServiceBase
from service.matches.system_steps import system_steps
from service.matches.use_case_types import CommandRequest
from service.ports import event_store
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded

# What a bot seat plays at a state: its seat and command (None: no bot is to move).
BotChoice = Callable[[Any], tuple[int, SeatCommand] | None]
# What refuses a command on the match's state: the rules, a stale If-Match, a passed deadline.
REFUSALS = (DomainError, StaleVersion, DeadlinePassed)


class PlayingMatches(MatchServiceBase):
    async def handle(
        self, match: RegisteredMatch, seat: int, request: CommandRequest
    ) -> Loaded[Any]:
        """Decide and append ``request.command`` for ``seat`` of ``match`` (the registry row
        the request was authenticated with); the state after it, as committed."""
        received_at = self.clock()
        if not match.full:
            raise WaitingForOpponent("an invited player has not joined yet")
        require_started(match, received_at)
        key = fingerprint = None
        if request.idempotency_key is not None:
            key = _store_key(match.match_id, seat, request.idempotency_key)
            fingerprint = request.fingerprint(seat)
        try:
            return await self._played(match, seat, request, received_at, key, fingerprint)
        except REFUSALS:
            # Refused on the match as it is. A retry is answered with its first attempt, if
            # there was one: it committed with the events the refusal was decided on (the key
            # is written in the same statement), so the lookup finds it. A command that is
            # legal again is not refused: its append answers with the first attempt's instead.
            if key is None or fingerprint is None:
                raise
            first = await self.streams_for(match).store.find_idempotent(key)
            if first is None:
                raise
            return await self._answer_again(match, first, fingerprint)

    async def _played(
        self,
        match: RegisteredMatch,
        seat: int,
        request: CommandRequest,
        received_at: datetime,
        key: str | None,
        fingerprint: bytes | None,
    ) -> Loaded[Any]:
        """Decided on this process's cached state without reading first; the append proves it
        current. A refusal is only ever decided on a state read from the store (a stale state
        may refuse what the match allows), and a conflict that brings the events another
        process appended has the command decided again on them, once."""
        match_id, streams = match.match_id, self.streams_for(match)
        loaded = streams.cached(match_id)
        read = loaded is None
        if loaded is None:
            loaded = await streams.load(match_id)
        for attempt in range(2):
            try:
                events, state = self._decided(match, seat, request, loaded, received_at)
            except REFUSALS:
                if read:
                    raise
                loaded, read = await streams.load(match_id), True
                events, state = self._decided(match, seat, request, loaded, received_at)
            try:
                after, _ = await streams.append(
                    match_id,
                    loaded,
                    events,
                    state=state,
                    idempotency_key=key,
                    fingerprint=fingerprint,
                )
            except event_store.ConcurrencyConflict as conflict:
                caught = None if attempt else await streams.caught_up(match_id, loaded, conflict)
                if caught is None:
                    error = StaleVersion if request.if_match is not None else VersionConflict
                    raise error(
                        f"the match moved on to version {conflict.current} while this command "
                        "was handled; nothing was applied"
                    ) from None
                loaded, read = caught, True
                continue
            if touches_fairness(events):
                await self.fairness.sync(match, after.state)
            return after
        raise AssertionError("the second attempt returns or raises")

    def _decided(
        self,
        match: RegisteredMatch,
        seat: int,
        request: CommandRequest,
        loaded: Loaded[Any],
        received_at: datetime,
    ) -> tuple[list[Any], Any]:
        """The events ``request`` makes at ``loaded`` with the system steps they make due, and
        the state they lead to; raises one of ``REFUSALS``."""
        if request.if_match is not None and request.if_match != loaded.version:
            raise StaleVersion(
                f"the match is at version {loaded.version}, not {request.if_match}; "
                "load the view again"
            )
        rules = self.rules_for(match)
        require_in_time(rules, loaded.state, seat, request.command, received_at)
        events = rules.decided(loaded.state, request.command, seat, received_at)
        steps, state = system_steps(
            rules.fold(events, loaded.state),
            match,
            links=self.fairness.links,
            now=received_at,
            made=events,
        )
        return [*events, *steps], state

    async def play_bots(
        self, match: RegisteredMatch, loaded: Loaded[Any], choose: BotChoice, *, limit: int
    ) -> Loaded[Any]:
        """Up to ``limit`` bot moves, each ``choose``n on the state the one before led to and
        decided with the system steps it makes due, as ``handle`` decides a seat's command, then
        appended together at ``loaded``'s version (``ConcurrencyConflict`` if the match moved
        on). A run of bot moves with no person between (two bots' hands while a person sits
        out) is one append, not one each."""
        rules, now = self.rules_for(match), self.clock()
        if not started(match, now):
            return loaded
        state, events = loaded.state, []
        for _ in range(limit):
            chosen = choose(state)
            if chosen is None:
                break
            made = rules.decided(state, chosen[1], chosen[0], now)
            links = self.fairness.links
            steps, state = system_steps(
                rules.fold(made, state), match, links=links, now=now, made=made
            )
            events += [*made, *steps]
        if not events:
            return loaded
        after, _ = await self.streams_for(match).append(match.match_id, loaded, events, state=state)
        if touches_fairness(events):
            await self.fairness.sync(match, after.state)
        return after

    async def _answer_again(
        self, match: RegisteredMatch, first: event_store.IdempotentAppend, fingerprint: bytes
    ) -> Loaded[Any]:
        """The answer to a retry: the state right after the append its first attempt made."""
        streams = self.streams_for(match)
        if first.fingerprint != fingerprint or first.result.stream_id != streams.stream_id(
            match.match_id
        ):
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used for a different command"
            )
        answered = await streams.load_at(match.match_id, first.result.last_version)
        # With its first append, so a receipt signs the hash the store kept for it.
        return Loaded(answered.state, answered.version, first.result, retried=True)


def require_in_time(
    rules: MatchRules[Any, Any], state: Any, seat: int, command: SeatCommand, at: datetime
) -> None:
    """A seat's move received after its deadline (on its table's clock) is refused: the
    timeout is what applies. Resigning is never too late."""
    hand = rules.hand_of(state, seat)
    if hand is None:
        return
    clock = hand[0].clock
    if clock is None or clock.seat != hand[1] or clock.due_at is None or at <= clock.due_at:
        return
    if not isinstance(command, Resign):
        raise DeadlinePassed(
            f"seat {seat}'s time ran out at {clock.due_at.isoformat()}; the server makes its "
            "default move"
        )


def started(match: RegisteredMatch, at: datetime) -> bool:
    return match.clocks_start_at is None or at >= match.clocks_start_at


def require_started(match: RegisteredMatch, at: datetime) -> None:
    """Before its round's start a match takes no move, resigning included."""
    if not started(match, at):
        assert match.clocks_start_at is not None
        raise MatchNotStarted(
            f"this match starts at {match.clocks_start_at.isoformat()}; "
            "no move is taken before then"
        )


def _store_key(match_id: str, seat: int, key: str) -> str:
    return f"command:{match_id}:{seat}:{key}"
