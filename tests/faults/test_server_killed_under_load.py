"""``gin serve`` SIGKILLed while many clients play, and started again: every command a client
was told succeeded is still there exactly once (a command cut off mid-flight and sent again
with its key is applied at most once), no 500s are answered before or after, and ``gin audit``
passes on every match."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from bench.servers import gin_serve
from tests.api.players import LONG_GAME, create_table
from tests.faults.load import Record, Target, audit_every_match, check_nothing_lost, player

CLIENTS = 8
# Acknowledged commands before the kill, and after the restart: enough that commands are in
# flight at the kill, and that play carries on after it.
BEFORE_KILL = 24
AFTER_RESTART = 16
WAIT_SECONDS = 120.0  # a bound for each phase on a loaded machine, not a speed requirement

pytestmark = pytest.mark.slow


async def acknowledged_at_least(record: Record, count: int) -> None:
    async with asyncio.timeout(WAIT_SECONDS):
        while len(record.acknowledged) < count:
            await asyncio.sleep(0.05)


async def test_nothing_acknowledged_is_lost_when_the_server_is_killed_under_load(
    database_url: str,
) -> None:
    record = Record()
    with contextlib.ExitStack() as servers:
        first = servers.enter_context(gin_serve(database_url))
        target = Target(first.url)
        async with httpx.AsyncClient(base_url=first.url) as setup:
            tables = [await create_table(setup, **LONG_GAME) for _ in range(CLIENTS)]
        async with httpx.AsyncClient(timeout=60) as http:
            stop = asyncio.Event()
            players = [
                asyncio.create_task(player(http, target, table, record, stop, seed))
                for seed, table in enumerate(tables)
            ]
            await acknowledged_at_least(record, BEFORE_KILL)

            first.kill()  # SIGKILL, workers included: no shutdown, nothing flushed
            killed_at = len(record.acknowledged)
            second = await asyncio.to_thread(servers.enter_context, gin_serve(database_url))
            target.url = second.url
            await acknowledged_at_least(record, killed_at + AFTER_RESTART)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*players), WAIT_SECONDS)

            await check_nothing_lost(http, target, tables, record)

    await audit_every_match(database_url, tables)
    assert record.transport_errors, "no request saw the kill: the test proved nothing"
    record.check_answers()
