"""The idle matches contract: both adapters find the match streams (of every table size) whose
last event was stored at or before a time and that have not ended, and lease each to one
claimer at a time.

The times are the store's own (PostgreSQL's commit time, the in-memory store's clock), so the
limits here are placed around the moment the events were appended, never waited for."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.idle_matches import InMemoryIdleMatches
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.idle_matches import PostgresIdleMatches
from domain.events import DeadlineSet, Event, MatchEnded, MatchWon
from domain.options import RuleOptions
from domain.tables import FormatEvent, FormatMatchCreated, FormatMatchWon
from service.ports.event_store import EventStore
from service.ports.idle_matches import IdleMatch, IdleMatches
from service.store.codec import TABLE_EVENTS, to_record
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS

LEASE = 30.0
# Far enough either side of the appends for the database's clock and this process's to agree.
MARGIN = timedelta(minutes=5)


@dataclass
class Streams:
    store: EventStore
    idle: IdleMatches
    versions: dict[str, int]

    async def append(self, stream: str, *events: Event) -> None:
        version = self.versions.get(stream, 0)
        await self.store.append(stream, [to_record(e) for e in events], expected_version=version)
        self.versions[stream] = version + len(events)

    async def claim(self, idle_since: datetime, now: datetime, limit: int = 10) -> list[IdleMatch]:
        return await self.idle.claim_idle(idle_since, now, limit=limit, lease_seconds=LEASE)


@pytest.fixture(params=ADAPTERS)
async def streams(request: pytest.FixtureRequest) -> AsyncIterator[Streams]:
    if request.param == "memory":
        memory = InMemoryEventStore()
        yield Streams(memory, InMemoryIdleMatches(memory), {})
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=10) as pool:
            store = PostgresEventStore(pool)
            try:
                yield Streams(store, PostgresIdleMatches(pool), {})
            finally:
                await store.close_wakeups()


def match(n: int) -> str:
    return f"match-{uuid.UUID(int=n)}"


def clock_event() -> DeadlineSet:
    now = datetime.now(UTC)
    return DeadlineSet(seat=None, at=now, due_at=None, banks_ms=[0, 0])


def ended() -> MatchEnded:
    return MatchEnded(
        reason="resigned", seat=0, winner=1, note=None, match_scores=[0, 0], games_won=[0, 0]
    )


def later() -> datetime:
    return datetime.now(UTC) + MARGIN


async def test_nothing_is_idle_at_first(streams: Streams) -> None:
    assert await streams.claim(later(), later()) == []


async def test_a_match_is_idle_once_its_last_event_is_older_than_the_limit(
    streams: Streams,
) -> None:
    before = datetime.now(UTC) - MARGIN
    await streams.append(match(1), clock_event(), clock_event())
    assert await streams.claim(before, later()) == []
    now = later()
    assert await streams.claim(now, now) == [IdleMatch(match(1), 2)]


async def test_a_claimed_match_is_leased_until_its_lease_ends(streams: Streams) -> None:
    await streams.append(match(1), clock_event())
    now = later()
    assert await streams.claim(now, now) == [IdleMatch(match(1), 1)]
    assert await streams.claim(now, now) == []
    assert await streams.claim(now, now + timedelta(seconds=LEASE - 1)) == []
    lease_over = now + timedelta(seconds=LEASE)
    assert await streams.claim(now, lease_over) == [IdleMatch(match(1), 1)]


async def test_a_new_event_makes_a_match_no_longer_idle(streams: Streams) -> None:
    await streams.append(match(1), clock_event())
    between = datetime.now(UTC)
    assert await streams.claim(between, between) == [IdleMatch(match(1), 1)]
    await streams.append(match(1), clock_event())
    # The lease is over by then; what keeps the match out is its newer event.
    assert await streams.claim(between, later()) == []


@pytest.mark.parametrize("ending", ["match_ended", "match_won"])
async def test_an_ended_match_is_never_idle(streams: Streams, ending: str) -> None:
    won = MatchWon(winner=0, match_scores=[100, 0], games_won=[1, 0])
    await streams.append(match(1), clock_event(), ended() if ending == "match_ended" else won)
    await streams.append(match(2), clock_event())
    now = later()
    assert await streams.claim(now, now) == [IdleMatch(match(2), 1)]


async def test_only_match_streams_are_idle(streams: Streams) -> None:
    for stream in (f"fairness-{uuid.UUID(int=1)}", "tournament-x"):
        await streams.append(stream, clock_event())
    now = later()
    assert await streams.claim(now, now) == []


async def test_idle_matches_come_longest_idle_first_up_to_the_limit(streams: Streams) -> None:
    for n in (3, 1, 2):
        await streams.append(match(n), clock_event())
    now = later()
    first = await streams.claim(now, now, limit=2)
    assert first == [IdleMatch(match(3), 1), IdleMatch(match(1), 1)]
    assert await streams.claim(now, now, limit=2) == [IdleMatch(match(2), 1)]


async def test_concurrent_claimers_never_share_a_match(streams: Streams) -> None:
    for n in range(20):
        await streams.append(match(n), clock_event())
    now = later()
    claims = await asyncio.gather(*(streams.claim(now, now, limit=3) for _ in range(10)))
    claimed = [idle.stream_id for claim in claims for idle in claim]
    assert len(claimed) == len(set(claimed))
    # A claimer that loses a race for a match is answered without it, not held up, so those
    # left over are claimed by the next sweep: none twice, none lost.
    while more := await streams.claim(now, now, limit=3):
        claimed += [idle.stream_id for idle in more]
    assert sorted(claimed) == sorted(match(n) for n in range(20))


def table_match(n: int) -> str:
    return f"format-match-{uuid.UUID(int=n)}"


async def test_matches_of_three_and_four_seats_are_idle_until_they_end(streams: Streams) -> None:
    created = FormatMatchCreated(players=3, options=RuleOptions())
    won = FormatMatchWon(winner=1, match_scores=[0, 100, 0], games_won=[0, 1, 0])
    runs: list[tuple[int, list[FormatEvent]]] = [(1, [created]), (2, [created, won])]
    for n, events in runs:
        records = [TABLE_EVENTS.to_record(event) for event in events]
        await streams.store.append(table_match(n), records, expected_version=0)
    await streams.append(match(3), clock_event(), ended())
    now = later()

    assert await streams.claim(now, now) == [IdleMatch(table_match(1), 1)]
