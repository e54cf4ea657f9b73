"""A clocked match on the real use cases over the in-memory adapters, with a clock the test
moves: the turn clocks' timer is driven by hand (``fire_due``), never by sleeping."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from adapters.memory.deadlines import InMemoryDeadlines
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.seed_commitments import InMemorySeedCommitmentStore
from domain import RuleOptions
from domain.commands import SeatCommand
from domain.events import DeadlineSet, Event
from domain.match_rules import MatchRules
from domain.state import HandState, Phase
from domain.tables import TableEvent
from service.audit.game_record import GameRecord
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.fairness.commitments import SeedCommitments
from service.matches.abandonment import Abandonment
from service.matches.deadline_timer import DeadlineTimer
from service.matches.use_cases import CommandRequest, CreatedMatch, MatchService
from service.store.match_streams import Loaded, MatchStreams

START = datetime(2026, 1, 1, 12, tzinfo=UTC)
CLOCKED = RuleOptions(
    turn_seconds=10, bank_seconds=20, timeouts_to_forfeit=3, game_target=30, match_target=0
)

# A day: the tests move the clock past it; the service's default is a week.
ABANDON_AFTER = 24 * 3600.0


class MovableClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class Lifecycle:
    """A match service, its store, deadlines, timer and clock, all in this process; a match of
    any size read through its rules the way the service reads it."""

    def __init__(self, rng: random.Random | None = None) -> None:
        rng = rng or random.Random(0)
        self.clock = MovableClock()
        self.store = InMemoryEventStore(clock=self.clock)
        self.matches = MatchService(
            MatchStreams(self.store),
            InMemoryMatchRegistry(),
            SeedCommitments(InMemorySeedCommitmentStore(), new_secret=lambda: rng.randbytes(32)),
            new_match_id=lambda: str(uuid.UUID(int=rng.getrandbits(128))),
            clock=self.clock,
        )
        self.deadlines = InMemoryDeadlines(self.store)
        self.abandonment = Abandonment(
            InMemoryIdleMatches(self.store), self.matches, after_seconds=ABANDON_AFTER
        )
        self.timer = DeadlineTimer(self.deadlines, self.matches, abandonment=self.abandonment)

    async def create(
        self, options: RuleOptions = CLOCKED, bots: Sequence[str | None] = (), seats: int = 2
    ) -> CreatedMatch:
        assert self.matches.commitments is not None
        committed = await self.matches.commitments.create()
        return await self.matches.create_match(
            options=options, commitment=committed.commitment, bots=bots, players=seats
        )

    async def load(self, match_id: str) -> Loaded:
        return await self.matches.load(match_id)

    async def deadline(self, match_id: str) -> DeadlineSet | None:
        """The match's next deadline, at any table size."""
        match = await self.matches.match(match_id)
        return self.matches.rules_for(match).deadline((await self.load(match_id)).state)

    async def past_deadline(self, match_id: str) -> int | None:
        """Move the clock to the match's next deadline; the seat on it."""
        clock = await self.deadline(match_id)
        assert clock is not None
        assert clock.due_at is not None
        self.clock.now = max(self.clock.now, clock.due_at)
        return clock.seat

    async def started(self, seats: int = 2, options: RuleOptions = CLOCKED) -> CreatedMatch:
        """A match where a seat is offered an upcard: at two seats the dealer is chosen first
        (three and four deal their tables at once)."""
        created = await self.create(options, seats=seats)
        match_id = created.match_id
        while any(hand.phase is Phase.CHOOSE_DEALER for hand, _ in await self.hands(match_id)):
            await self.play(match_id, await self.on_the_clock(match_id))
        return created

    async def rules(self, match_id: str) -> MatchRules[Any, Any]:
        return self.matches.rules_for(await self.matches.match(match_id))

    async def state(self, match_id: str) -> Any:
        return (await self.load(match_id)).state

    async def hand(self, match_id: str, seat: int) -> tuple[HandState, int]:
        """The two-player hand the seat plays and its seat there."""
        placed = (await self.rules(match_id)).hand_of(await self.state(match_id), seat)
        assert placed is not None
        return placed

    async def hands(self, match_id: str) -> list[tuple[HandState, int]]:
        """Every hand being played, once each, with the seat there of its first match seat."""
        rules, state = await self.rules(match_id), await self.state(match_id)
        found: dict[int, tuple[HandState, int]] = {}
        for seat in range(len((await self.matches.match(match_id)).seats)):
            placed = rules.hand_of(state, seat)
            if placed is not None:
                found.setdefault(id(placed[0]), placed)
        return list(found.values())

    async def on_the_clock(self, match_id: str) -> int:
        deadline = await self.deadline(match_id)
        assert deadline is not None
        assert deadline.seat is not None
        return deadline.seat

    async def play(self, match_id: str, seat: int) -> None:
        """The seat's first listed move."""
        rules = await self.rules(match_id)
        command = rules.bot_view(await self.state(match_id), seat).legal_actions[0]
        assert isinstance(command, SeatCommand)
        await self.matches.handle(
            await self.matches.match(match_id),
            seat,
            CommandRequest(msgspec.structs.replace(command, seat=seat)),
        )

    async def hand_events(self, match_id: str, after: int = 0) -> list[Event]:
        """The match's events, a table's unwrapped."""
        events = await self.matches.events(match_id, None, after_version=after)
        return [e.event if isinstance(e, TableEvent) else e for _, e in events]

    async def verified(self, match_id: str) -> GameRecord:
        """The match's record; it must verify."""
        record, _ = await served_record(self.matches, await self.matches.match(match_id))
        verdict = verify_record(record)
        assert verdict.ok, verdict.render()
        return record
