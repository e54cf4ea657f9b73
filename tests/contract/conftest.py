"""Every adapter of a port runs the same contract: the test bodies never know which one they
have. PostgreSQL adapters get a fresh migrated database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.operator_keys import InMemoryOperatorKeyStore
from adapters.memory.seed_commitments import InMemorySeedCommitmentStore
from adapters.memory.stream_tickets import InMemoryStreamTicketStore
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from adapters.postgres.seed_commitments import PostgresSeedCommitmentStore
from adapters.postgres.stream_tickets import PostgresStreamTicketStore
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry
from service.ports.operator_keys import OperatorKeyStore
from service.ports.seed_commitments import SeedCommitmentStore
from service.ports.stream_tickets import StreamTicketStore
from tests.app_login import as_app

ADAPTERS = ["memory", "postgres"]


@pytest.fixture(params=ADAPTERS)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[EventStore]:
    if request.param == "memory":
        yield InMemoryEventStore()
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        # As the service connects: the contract holds within the application role's rights.
        async with PostgresEventStore.connect(as_app(url), max_size=20) as postgres:
            yield postgres


@pytest.fixture(params=ADAPTERS)
async def registry(request: pytest.FixtureRequest) -> AsyncIterator[MatchRegistry]:
    if request.param == "memory":
        yield InMemoryMatchRegistry()
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=5) as pool:
            yield PostgresMatchRegistry(pool)


@pytest.fixture(params=ADAPTERS)
async def operator_keys(request: pytest.FixtureRequest) -> AsyncIterator[OperatorKeyStore]:
    if request.param == "memory":
        yield InMemoryOperatorKeyStore()
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(url, max_size=5) as pool:
            yield PostgresOperatorKeyStore(pool)


@dataclass(frozen=True)
class Commitments:
    """A commitment store, and a way to make everything it keeps older by ``timedelta``."""

    store: SeedCommitmentStore
    age: Callable[[timedelta], Awaitable[None]]


class MovableClock:
    def __init__(self) -> None:
        self.now = datetime(2025, 11, 30, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(params=ADAPTERS)
async def commitments(request: pytest.FixtureRequest) -> AsyncIterator[Commitments]:
    if request.param == "memory":
        clock = MovableClock()

        async def later(by: timedelta) -> None:
            clock.now += by

        yield Commitments(InMemorySeedCommitmentStore(clock), later)
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=5) as pool, open_pool(url, max_size=1) as owner:

            async def backdate(by: timedelta) -> None:
                # The database's clock cannot be moved on; its rows can be made older (by the
                # owner: the service may not rewrite when a commitment was made).
                async with owner.connection() as conn:
                    await conn.execute(
                        "UPDATE seed_commitments SET created_at = created_at - %s", (by,)
                    )

            yield Commitments(PostgresSeedCommitmentStore(pool), backdate)


@dataclass(frozen=True)
class Tickets:
    """A stream ticket store, and a way to make everything it keeps older by ``timedelta``."""

    store: StreamTicketStore
    age: Callable[[timedelta], Awaitable[None]]
    match_id: str  # a match the tickets may name


@pytest.fixture(params=ADAPTERS)
async def tickets(request: pytest.FixtureRequest) -> AsyncIterator[Tickets]:
    match_id = "0f8fad5b-d9cb-469f-a165-70867728950e"
    if request.param == "memory":
        clock = MovableClock()

        async def later(by: timedelta) -> None:
            clock.now += by

        yield Tickets(InMemoryStreamTicketStore(clock), later, match_id)
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=5) as pool, open_pool(url, max_size=1) as owner:
            await PostgresMatchRegistry(pool).create(
                match_id, external_ref=None, server_secret=bytes(32), seats=[]
            )

            async def backdate(by: timedelta) -> None:
                # The database's clock cannot be moved on; its tickets can be made older.
                async with owner.connection() as conn:
                    await conn.execute(
                        "UPDATE stream_tickets SET expires_at = expires_at - %s", (by,)
                    )

            yield Tickets(PostgresStreamTicketStore(pool), backdate, match_id)
