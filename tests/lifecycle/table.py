"""A clocked match on the real use cases over the in-memory adapters, with a clock the test
moves: the turn clocks' timer is driven by hand (``fire_due``), never by sleeping."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from adapters.memory.deadlines import InMemoryDeadlines
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.seed_commitments import InMemorySeedCommitmentStore
from domain import RuleOptions
from domain.events import DeadlineSet
from service.fairness.commitments import SeedCommitments
from service.matches.abandonment import Abandonment
from service.matches.deadline_timer import DeadlineTimer
from service.matches.use_cases import CreatedMatch, MatchService
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
    """A match service, its store, deadlines, timer and clock, all in this process."""

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
