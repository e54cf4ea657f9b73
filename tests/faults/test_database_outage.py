"""PostgreSQL goes away under the app and comes back: every request is answered in bounded
time with 503 + Retry-After meanwhile, readiness says so, and the first command after the
database is back succeeds at once (issue 13, finding 1)."""

from __future__ import annotations

import asyncio
import random
import time

import msgspec
import psycopg
import pytest

from adapters.postgres.event_store import PostgresEventStore, open_pool
from domain import RuleOptions
from service.errors import DatabaseUnavailable
from tests.api.conftest import served, settings_for
from tests.api.players import choose, create_table
from tests.faults.conftest import Outage
from web.settings import Settings

TIMEOUT = Settings().database_timeout_seconds
# Room for a busy two-core machine on top of the bound itself.
MARGIN = 2.0
# What the service promises once the database answers again (adapters/postgres/pool.py).
RECOVERY_SECONDS = 1.0

pytestmark = pytest.mark.slow


def deployed(database_url: str) -> Settings:
    """The test app's settings with the deployed database timeout: the bound timed here."""
    return msgspec.structs.replace(settings_for(database_url), database_timeout_seconds=TIMEOUT)


async def test_requests_get_503_with_retry_after_while_the_database_is_down_and_succeed_after(
    database_back: Outage,
) -> None:
    outage = database_back
    async with served(outage.url, deployed(outage.url)) as running:
        http = running.client
        table = await create_table(http)
        view = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
        seat = view["seat"] if view["legal_actions"] else 1 - view["seat"]
        view = (await http.get(f"{table.path}/view", headers=table.headers(seat))).json()
        assert (await http.get("/health/ready")).status_code == 200

        outage.stop()
        command = choose(view, random.Random(1))
        for method, path, body, seat_headers in [
            ("POST", f"{table.path}/commands", command, table.headers(view["seat"])),
            ("GET", f"{table.path}/view", None, table.headers(0)),
            ("GET", f"{table.path}/events", None, {}),
            ("POST", "/matches", {}, {}),
            ("POST", "/commitments", None, {}),
        ]:
            started = time.monotonic()
            response = await http.request(method, path, json=body, headers=seat_headers)
            took = time.monotonic() - started
            assert response.status_code == 503, (path, response.text)
            assert response.headers["content-type"].startswith("application/problem+json")
            assert response.json()["type"] == "/problems/database-unavailable"
            assert int(response.headers["retry-after"]) >= 1
            assert took < TIMEOUT + MARGIN, (path, took)

        ready = await http.get("/health/ready")
        assert ready.status_code == 503
        assert ready.json()["database"] == "unreachable"
        assert (await http.get("/health/live")).status_code == 200
        assert (await http.get("/health")).status_code == 503

        outage.start()
        started = time.monotonic()
        response = await http.post(
            f"{table.path}/commands", json=command, headers=table.headers(view["seat"])
        )
        took = time.monotonic() - started
        assert response.status_code == 200, response.text
        assert response.json()["version"] > view["version"]
        assert took < RECOVERY_SECONDS + MARGIN / 4, took
        assert (await http.get("/health/ready")).status_code == 200


async def test_the_pool_drops_dead_connections_instead_of_failing_with_them(
    database_back: Outage,
) -> None:
    """After a restart every pooled connection is dead; none of them becomes a failure."""
    outage = database_back
    async with served(outage.url, deployed(outage.url)) as running:
        http = running.client
        # Fill the pool with idle connections.
        await asyncio.gather(*(http.get("/health") for _ in range(10)))
        outage.stop()
        outage.start()
        answers = await asyncio.gather(*(http.get("/health/ready") for _ in range(10)))
        assert [a.status_code for a in answers] == [200] * 10
        table = await create_table(http)
        assert (await http.get(table.path)).status_code == 200


async def test_readiness_fails_while_migrations_are_pending(database_url: str) -> None:
    async with served(database_url) as running:
        assert (await running.client.get("/health/ready")).status_code == 200
        with psycopg.connect(database_url, autocommit=True) as connection:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            assert row is not None
            version = row[0]
            connection.execute("UPDATE alembic_version SET version_num = '0001'")
        try:
            ready = await running.client.get("/health/ready")
            assert ready.status_code == 503
            assert ready.json()["migrations"] == "pending"
            assert (await running.client.get("/health")).status_code == 200
        finally:
            with psycopg.connect(database_url, autocommit=True) as connection:
                connection.execute("UPDATE alembic_version SET version_num = %s", (version,))


async def test_the_use_cases_see_the_port_error_not_psycopgs(database_back: Outage) -> None:
    outage = database_back
    async with open_pool(outage.url, min_size=1, max_size=2, timeout=0.5) as pool:
        store = PostgresEventStore(pool)
        assert await store.stream_version("nothing") == 0
        outage.stop()
        with pytest.raises(DatabaseUnavailable):
            await store.stream_version("nothing")
        with pytest.raises(DatabaseUnavailable):
            await store.stream_version("nothing")  # no connection at all now: the timeout
        outage.start()
        assert await store.stream_version("nothing") == 0


async def test_the_bot_runner_carries_on_after_an_outage(database_back: Outage) -> None:
    """The background runner (not a request) plays a bot's move due after the database is
    back: its loop outlived the failures of the outage."""
    outage = database_back
    async with served(outage.url, deployed(outage.url)) as running:
        matches = running.app.state.matches
        outage.stop()
        await asyncio.sleep(TIMEOUT + 1.5)  # the sweep and the wake-ups fail meanwhile
        outage.start()
        # Created without the request's inline answer: only the background runner moves it.
        # Who acts first is drawn for each match; a match where the bot is to move is needed.
        for _ in range(30):
            created = await matches.create_match(options=RuleOptions(), bots=["simple", None])
            loaded = await matches.load(created.match_id)
            if loaded.state.turn == 0:
                break
        else:
            raise AssertionError("no match with the bot to move first in 30 tries")
        deadline = time.monotonic() + 10 + MARGIN
        version = loaded.version
        while version == loaded.version and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            version = (await matches.load(created.match_id)).version
        assert version > loaded.version
