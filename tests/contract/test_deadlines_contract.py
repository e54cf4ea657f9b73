"""The deadlines contract: both adapters keep a stream's deadline as its committed events set
it, and lease due ones to one claimer at a time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from adapters.memory.deadlines import InMemoryDeadlines
from adapters.memory.event_store import InMemoryEventStore
from adapters.postgres.deadlines import PostgresDeadlines
from adapters.postgres.event_store import PostgresEventStore, open_pool
from domain.events import DeadlineSet, Event, MatchEnded
from service.ports.deadlines import Deadlines
from service.ports.event_store import EventStore
from service.store.codec import to_record
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
LEASE = 30.0


@dataclass
class Clocks:
    store: EventStore
    deadlines: Deadlines
    versions: dict[str, int]

    async def append(self, stream: str, *events: Event) -> None:
        version = self.versions.get(stream, 0)
        await self.store.append(stream, [to_record(e) for e in events], expected_version=version)
        self.versions[stream] = version + len(events)


@pytest.fixture(params=ADAPTERS)
async def clocks(request: pytest.FixtureRequest) -> AsyncIterator[Clocks]:
    if request.param == "memory":
        memory = InMemoryEventStore()
        yield Clocks(memory, InMemoryDeadlines(memory), {})
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=10) as pool:
            store = PostgresEventStore(pool)
            try:
                yield Clocks(store, PostgresDeadlines(pool), {})
            finally:
                await store.close_wakeups()


def due(seat: int | None, at: datetime) -> DeadlineSet:
    return DeadlineSet(seat=seat, at=T0, due_at=at, banks_ms=[0, 0])


def ended() -> MatchEnded:
    return MatchEnded(
        reason="resigned", seat=0, winner=1, note=None, match_scores=[0, 0], games_won=[0, 0]
    )


async def test_nothing_is_pending_at_first(clocks: Clocks) -> None:
    assert await clocks.deadlines.next_wakeup() is None
    assert await clocks.deadlines.pending() == 0
    assert await clocks.deadlines.claim_due(T0, limit=10, lease_seconds=LEASE) == []


async def test_a_deadline_is_claimed_once_due_and_then_leased(clocks: Clocks) -> None:
    await clocks.append("match-a", due(0, T0 + timedelta(seconds=5)))
    deadlines = clocks.deadlines
    assert await deadlines.next_wakeup() == T0 + timedelta(seconds=5)
    assert await deadlines.claim_due(T0, limit=10, lease_seconds=LEASE) == []
    at = T0 + timedelta(seconds=5)
    assert await deadlines.claim_due(at, limit=10, lease_seconds=LEASE) == ["match-a"]
    assert await deadlines.claim_due(at, limit=10, lease_seconds=LEASE) == []
    assert await deadlines.next_wakeup() == at + timedelta(seconds=LEASE)
    later = at + timedelta(seconds=LEASE)
    assert await deadlines.claim_due(later, limit=10, lease_seconds=LEASE) == ["match-a"]


async def test_a_deadline_for_every_invited_seat_names_no_seat(clocks: Clocks) -> None:
    # Three and four seats: one join deadline for all the seats still to come.
    joined = DeadlineSet(seat=None, at=T0, due_at=T0 + timedelta(seconds=5), banks_ms=[0] * 3)
    await clocks.append("match-a", msgspec.structs.replace(joined, kind="join"))
    assert await clocks.deadlines.pending() == 1
    at = T0 + timedelta(seconds=5)
    assert await clocks.deadlines.claim_due(at, limit=10, lease_seconds=LEASE) == ["match-a"]


async def test_a_new_deadline_replaces_the_old_and_its_lease(clocks: Clocks) -> None:
    await clocks.append("match-a", due(0, T0))
    assert await clocks.deadlines.claim_due(T0, limit=10, lease_seconds=LEASE) == ["match-a"]
    await clocks.append("match-a", due(1, T0 + timedelta(seconds=1)))
    assert await clocks.deadlines.next_wakeup() == T0 + timedelta(seconds=1)
    assert await clocks.deadlines.pending() == 1


@pytest.mark.parametrize("ending", ["nobody on the clock", "match ended"])
async def test_a_deadline_ends_with_its_clock_or_its_match(clocks: Clocks, ending: str) -> None:
    await clocks.append("match-a", due(0, T0))
    await clocks.append("match-b", due(1, T0 + timedelta(seconds=9)))
    last = DeadlineSet(seat=None, at=T0, due_at=None, banks_ms=[0, 0])
    await clocks.append("match-a", last if ending == "nobody on the clock" else ended())
    assert await clocks.deadlines.pending() == 1
    assert await clocks.deadlines.next_wakeup() == T0 + timedelta(seconds=9)


async def test_due_deadlines_come_earliest_first_up_to_the_limit(clocks: Clocks) -> None:
    for name, seconds in [("match-c", 3), ("match-a", 1), ("match-b", 2)]:
        await clocks.append(name, due(0, T0 + timedelta(seconds=seconds)))
    at = T0 + timedelta(seconds=10)
    assert await clocks.deadlines.claim_due(at, limit=2, lease_seconds=LEASE) == [
        "match-a",
        "match-b",
    ]
    assert await clocks.deadlines.claim_due(at, limit=2, lease_seconds=LEASE) == ["match-c"]


async def test_concurrent_claimers_never_share_a_deadline(clocks: Clocks) -> None:
    for n in range(20):
        await clocks.append(f"match-{n}", due(0, T0))
    claims = await asyncio.gather(
        *(clocks.deadlines.claim_due(T0, limit=3, lease_seconds=LEASE) for _ in range(10))
    )
    claimed = [stream for claim in claims for stream in claim]
    assert sorted(claimed) == sorted(f"match-{n}" for n in range(20))
