"""PostgreSQL stopped and started again under a light load of commands on a real ``gin serve``:
no 500s, every 503 answered in bounded time with Retry-After, nothing acknowledged lost or
applied twice, ``gin audit`` passes on every match, the live stream carries on by itself, and
the first command after the database is back succeeds at once."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from bench.servers import gin_serve
from tests.api.players import LONG_GAME, Table, create_table
from tests.faults.conftest import Outage
from tests.faults.load import (
    MARGIN,
    Record,
    Target,
    audit_every_match,
    check_nothing_lost,
    player,
    random_command,
    view_to_move,
)

RECOVERY_SECONDS = 1.0
PLAYERS = 3
OUTAGE_SECONDS = 4.0

pytestmark = pytest.mark.slow


async def stream_ids(http: httpx.AsyncClient, table: Table, ids: list[int]) -> None:
    async with http.stream("GET", f"{table.path}/stream", headers=table.headers(0)) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            if line.startswith("id:"):
                ids.append(int(line.removeprefix("id:").strip()))


async def test_nothing_acknowledged_is_lost_when_postgres_restarts_under_load(
    database_back: Outage,
) -> None:
    outage = database_back
    record = Record()
    with gin_serve(outage.url) as server:
        target = Target(server.url)
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            tables = [await create_table(http, **LONG_GAME) for _ in range(PLAYERS)]
            probe = await create_table(http, **LONG_GAME)
            probe_view = await view_to_move(http, target, probe)
            streamed: list[int] = []
            stream = asyncio.create_task(stream_ids(http, tables[0], streamed))
            stop = asyncio.Event()
            players = [
                asyncio.create_task(player(http, target, table, record, stop, seed))
                for seed, table in enumerate(tables)
            ]
            await asyncio.sleep(1.0)

            await asyncio.to_thread(outage.stop)
            await asyncio.sleep(OUTAGE_SECONDS)
            assert (await http.get("/health/ready")).status_code == 503
            assert (await http.get("/health/live")).status_code == 200
            await asyncio.to_thread(outage.start)

            started = time.monotonic()
            first = await http.post(
                f"{probe.path}/commands",
                json=random_command(probe_view, 9),
                headers=probe.headers(probe_view["seat"]),
            )
            took = time.monotonic() - started
            assert first.status_code == 200, first.text
            assert took < RECOVERY_SECONDS + MARGIN / 4, took

            await asyncio.sleep(2.0)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*players), 30)
            assert (await http.get("/health/ready")).status_code == 200

            # The stream went through the outage by itself: every event once, in order.
            final = (await http.get(f"{tables[0].path}/events")).json()["events"]
            versions = [event["version"] for event in final]
            deadline = time.monotonic() + 10
            while streamed[-1:] != versions[-1:] and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            stream.cancel()
            assert streamed == versions == list(range(1, len(versions) + 1))

            await check_nothing_lost(http, target, tables, record)

    await audit_every_match(outage.url, [*tables, probe])
    assert 503 in record.statuses, "the outage was not seen: the test proved nothing"
    record.check_answers()
    assert len(record.acknowledged) >= PLAYERS * 2
