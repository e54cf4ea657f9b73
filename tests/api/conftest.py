"""The app on a fresh migrated database per test module.

``client`` is Litestar's test client (the app runs in its own thread and event loop).
``asgi`` runs the app in the test's own event loop behind an httpx client, for tests that
need requests truly at once or a live stream read as it is written.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any, NamedTuple, cast

import httpx
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.app_login import as_app
from tests.request_log_lines import Lines, captured_lines
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings


class Asgi(NamedTuple):
    app: Litestar
    client: httpx.AsyncClient


# The database's answers may take this long before a request is cut with a 503: the tests
# share two cores with a browser and servers, and a starved moment can outlast the deployed
# 2 s. The outage tests, which time that bound, set the deployed one.
PATIENT_DATABASE_SECONDS = 30.0


def settings_for(database_url: str) -> Settings:
    """Settings for an app on ``database_url``'s database, connected as the application role.
    Rate limits are off: tests send from one address far faster than any client (the limits'
    own tests set them)."""
    return Settings(
        database_url=as_app(database_url),
        pool_max_size=20,
        log_level="WARNING",
        rate_limits=NO_LIMITS,
        database_timeout_seconds=PATIENT_DATABASE_SECONDS,
    )


@pytest.fixture(scope="module")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    async with AsyncTestClient(app=create_app(settings_for(database_url))) as test_client:
        yield test_client


@asynccontextmanager
async def served(database_url: str, settings: Settings | None = None) -> AsyncIterator[Asgi]:
    """An app running in this event loop, as one server process would run it (with
    ``settings``, if given, instead of ``settings_for(database_url)``)."""
    app = create_app(settings or settings_for(database_url))
    started, stop = asyncio.Event(), asyncio.Event()

    async def run_lifespan() -> None:
        # Entered and left in one task, as a server does (its scopes refuse anything else).
        async with app.lifespan():
            started.set()
            await stop.wait()

    lifespan = asyncio.create_task(run_lifespan())
    ready = asyncio.create_task(started.wait())
    await asyncio.wait({lifespan, ready}, return_when=asyncio.FIRST_COMPLETED)
    if lifespan.done():
        ready.cancel()
        lifespan.result()  # the startup failed: raise why
    # Litestar's ASGI signature is narrower than httpx's generic one; they speak the same ASGI.
    transport = httpx.ASGITransport(app=cast(Any, app))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            yield Asgi(app, http)
    finally:
        stop.set()
        await lifespan


@pytest.fixture(scope="module")
async def asgi(database_url: str) -> AsyncIterator[Asgi]:
    async with served(database_url) as running:
        yield running


@pytest.fixture
def log_lines() -> Iterator[Lines]:
    with captured_lines() as lines:
        yield lines
