"""The app on a fresh migrated database per test module, as in ``tests/api``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.conftest import settings_for
from web.app import create_app


@pytest.fixture(scope="module")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    async with AsyncTestClient(app=create_app(settings_for(database_url))) as test_client:
        yield test_client
