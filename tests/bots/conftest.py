"""Bot matches over the API, on a real PostgreSQL, with the app's bot runner running."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.app_login import as_app
from web.app import create_app
from web.settings import Settings


@pytest.fixture(scope="module")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    app = create_app(Settings(database_url=as_app(database_url), pool_max_size=10))
    async with AsyncTestClient(app=app) as test_client:
        yield test_client
