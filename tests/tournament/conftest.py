"""Apps over real PostgreSQL for the tournament tests, with webhooks paced for a test run."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from psycopg_pool import AsyncConnectionPool

from adapters.postgres.event_store import open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.settings import WebhookSettings
from tests.app_login import as_app
from tests.tournament.play import Client
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

# The receivers of these tests listen on this machine's loopback, and nowhere else.
LOOPBACK = ("127.0.0.0/8", "::1/128")
FAST_WEBHOOKS = WebhookSettings(
    poll_seconds=0.05,
    timeout_seconds=2.0,
    lease_seconds=5.0,
    retry_base_seconds=0.2,
    retry_cap_seconds=1.0,
    max_attempts=4,
    allowed_networks=LOOPBACK,
)


@asynccontextmanager
async def running_app(
    database_url: str, webhooks: WebhookSettings = FAST_WEBHOOKS
) -> AsyncIterator[Client]:
    # Rate limits off: one operator key creates far faster here than any real operator.
    settings = Settings(
        database_url=as_app(database_url),
        pool_max_size=20,
        webhooks=webhooks,
        rate_limits=NO_LIMITS,
    )
    app = create_app(settings)
    async with AsyncTestClient(app=app) as client:
        yield client


@pytest.fixture(scope="module")
async def client(database_url: str) -> AsyncIterator[Client]:
    async with running_app(database_url) as test_client:
        yield test_client


@pytest.fixture(scope="module")
async def keys(database_url: str) -> AsyncIterator[OperatorKeys]:
    """Operator keys on the module's database, through a pool of the tests' own event loop (the
    app runs in a loop of its own, so its pool is not for the tests to use)."""
    async with open_pool(database_url, min_size=1, max_size=2) as pool:
        yield operator_keys(pool)


def operator_keys(pool: AsyncConnectionPool[Any]) -> OperatorKeys:
    """Operator keys over ``pool``, wired as the app wires them."""
    return OperatorKeys(PostgresOperatorKeyStore(pool), PostgresMatchRegistry(pool))


async def new_key(keys: OperatorKeys, name: str, *scopes: str) -> str:
    """A fresh operator key, made the way ``gin operator create-key`` makes one."""
    return (await keys.create_key(name, scopes)).key
