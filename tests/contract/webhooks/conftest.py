"""Every webhook port's contract runs on both kinds of adapter: the test bodies get a ``World``
and never know which kind it is."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.postgres.event_store import open_pool
from tests.contract.webhooks.world import World, memory_world, postgres_world


@pytest.fixture(params=["memory", "postgres"])
async def world(request: pytest.FixtureRequest) -> AsyncIterator[World]:
    if request.param == "memory":
        yield memory_world()
        return
    url: str = request.getfixturevalue("fresh_database_url")
    async with open_pool(url, max_size=6) as pool:
        yield postgres_world(pool)
