"""An app on a fresh migrated database per test module, driven through Litestar's test client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from service.app import create_app
from service.settings import Settings


@pytest.fixture(scope="module")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    app = create_app(Settings(database_url=database_url, pool_max_size=20))
    async with AsyncTestClient(app=app) as test_client:
        yield test_client
