"""Bot seats play themselves, at every table size: while a bot is to act, the runner shows it
its seat's view (at three and four seats, its table's), and nothing else, and plays the command
it names as a person's command is played (the same rules and system steps, committed before
anything is answered), in an append after the command that made it due.

The moves of a run of bots (every move until a person is to act) are decided one after another
and appended together at the version the first was decided on, so a run decided on a table
that has since changed is refused rather than applied somewhere it was not meant for. Another
process playing the same moves first is no failure: the runner looks again and carries on from
whatever was committed. Within one process, a match is played by one call at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from domain.commands import SeatCommand
from domain.match_rules import as_seat
from service.bots.policy import Bot, bot_for
from service.errors import DatabaseUnavailable
from service.matches.use_cases import MatchService
from service.ports.event_store import ConcurrencyConflict
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded

BotFactory = Callable[[str], Bot]

_log = logging.getLogger("gin.bots")
# A bot answering a person needs a handful of moves, but at three seats the person may sit out
# while two bots play a whole hand (or many, drawn at the wall): that person hears of it all,
# the bots' moves committed every ``MOVES_PER_APPEND``.
MOVE_LIMIT = 1_000_000
MOVES_PER_APPEND = 2_000
WITHOUT_BOTS_KEPT = 100_000  # match ids, then forgotten all at once (and learnt again)


def bot_seats(match: RegisteredMatch) -> dict[int, str]:
    """The match's bot seats and their levels."""
    return {seat.seat: seat.bot for seat in match.seats if seat.bot is not None}


class BotRunner:
    def __init__(
        self, matches: MatchService, *, bots: BotFactory = bot_for, move_limit: int = MOVE_LIMIT
    ) -> None:
        """``move_limit`` bounds the moves of one call; anything left over waits for the next
        call (the background loop's)."""
        self._matches = matches
        self._bots = bots
        self._move_limit = move_limit
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        # Matches seen to have no bot seat. A match's bot seats are chosen when it is created
        # and never change, so once seen, always true.
        self._without_bots: set[str] = set()
        # Matches whose bot could not move for a database outage: nothing woke them since.
        self._stalled: set[str] = set()

    def known_without_bots(self, match_id: str) -> bool:
        """Whether ``match_id`` is known to have no bot seat (False: it has, or not known)."""
        return match_id in self._without_bots

    def _seats(self, match: RegisteredMatch) -> dict[int, str]:
        seats = bot_seats(match)
        if not seats:
            if len(self._without_bots) >= WITHOUT_BOTS_KEPT:
                self._without_bots.clear()
            self._without_bots.add(match.match_id)
        return seats

    async def answer(self, match: RegisteredMatch, after: Loaded[Any]) -> Loaded[Any]:
        """The bots' answer to a state just committed (by a person's command): every bot move
        due from there, and the state they lead to; ``after`` itself when no bot is to act."""
        seats = self._seats(match)
        awaits = self._matches.rules_for(match).awaits
        if not any(awaits(after.state, seat) for seat in seats):
            return after
        answered = await self._play_while_due(match, seats)
        if not after.retried:
            return answered
        # A retry is answered as its first attempt was, though the match moved on since: with
        # the bots' moves that followed that attempt, up to the first state at which a person
        # acts and no bot (a state between a hand's end and the next deal awaits nobody).
        streams = self._matches.streams_for(match)
        later = await streams.read_events(match.match_id, after_version=after.version)
        rules, state, version = streams.kind.rules, after.state, after.version
        people = [seat for seat in range(len(match.seats)) if seat not in seats]
        for at, event in later:
            if rules.over(state) or (
                any(awaits(state, seat) for seat in people)
                and not any(awaits(state, seat) for seat in seats)
            ):
                break
            state, version = rules.fold([event], state), at
        return Loaded(state, version, after.appended, retried=True)

    async def resume(self, match_id: str) -> None:
        """Play whatever bot moves the match is waiting on, if any."""
        if self.known_without_bots(match_id):
            return
        match = await self._matches.match(match_id)
        seats = self._seats(match)
        if seats:
            await self._play_while_due(match, seats)

    async def _play_while_due(self, match: RegisteredMatch, seats: dict[int, str]) -> Loaded[Any]:
        """A bot that fails is logged, never raised: whatever woke it is committed, and a
        person whose command did so must hear that it was."""
        match_id = match.match_id
        awaits = self._matches.rules_for(match).awaits
        async with self._one_call_per_match(match_id):
            loaded = await self._matches.load(match)
            played = 0
            try:
                while played < self._move_limit:
                    if not any(awaits(loaded.state, seat) for seat in seats):
                        break
                    limit = min(MOVES_PER_APPEND, self._move_limit - played)
                    loaded = await self._play(match, seats, loaded, limit)
                    played += limit
            except DatabaseUnavailable:
                # Nothing was played, and no append will wake this match: the background
                # runner takes it up again (``take_stalled``).
                _log.warning("a bot waits for the database", extra={"match_id": match_id})
                self._stalled.add(match_id)
            except Exception:
                _log.exception("a bot failed to move", extra={"match_id": match_id})
            return loaded

    def take_stalled(self) -> set[str]:
        """The matches whose bot an outage stopped since the last call."""
        stalled, self._stalled = self._stalled, set()
        return stalled

    async def _play(
        self, match: RegisteredMatch, seats: dict[int, str], loaded: Loaded[Any], limit: int
    ) -> Loaded[Any]:
        """The bots' moves from ``loaded`` on, up to ``limit``, in one append at its version."""
        rules = self._matches.rules_for(match)

        def choose(state: Any) -> tuple[int, SeatCommand] | None:
            seat = next((s for s in seats if rules.awaits(state, s)), None)
            if seat is None:
                return None
            command = self._bots(seats[seat]).choose(rules.bot_view(state, seat))
            if not isinstance(command, SeatCommand):
                raise TypeError(f"a {seats[seat]} bot named a command no seat may send")
            # Chosen on its table's view, where it sits at a table seat: sent for its seat.
            return seat, as_seat(command, seat)

        try:
            return await self._matches.play_bots(match, loaded, choose, limit=limit)
        except ConcurrencyConflict:
            # Another process played these seats (or the table moved on): look again.
            _log.debug("bot move superseded", extra={"match_id": match.match_id})
            return await self._matches.load(match)

    @asynccontextmanager
    async def _one_call_per_match(self, match_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(match_id, (asyncio.Lock(), 0))
        self._locks[match_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[match_id]
            if users == 1:
                del self._locks[match_id]
            else:
                self._locks[match_id] = (lock, users - 1)
