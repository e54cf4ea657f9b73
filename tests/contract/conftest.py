"""Every event store runs the same contract: the test bodies never know which one they have."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.postgres.event_store import PostgresEventStore
from service.ports.event_store import EventStore


@pytest.fixture(params=["memory", "postgres"])
async def store(request: pytest.FixtureRequest) -> AsyncIterator[EventStore]:
    if request.param == "memory":
        yield InMemoryEventStore()
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with PostgresEventStore.connect(url, max_size=20) as postgres:
            yield postgres
