"""Wake-ups off the commit path (migration 0007): the append's transaction sends nothing, the
event store sends one wake-up after it commits, and that reaches a waiter in another process."""

from __future__ import annotations

import asyncio
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.wakeups import PostgresWakeups
from service.ports.event_store import ConcurrencyConflict, NewEvent
from service.store.match_streams import stream_id

ROOT = Path(__file__).resolve().parents[2]
# Generous for a busy two-core machine; a wake-up that does arrive ends the wait at once.
ARRIVES = 10.0
# How long a wake-up that must not come is given to show up anyway.
STAYS_AWAY = 0.3

APPEND_IN_ANOTHER_PROCESS = """
import asyncio, sys
from adapters.postgres.event_store import PostgresEventStore
from service.ports.event_store import NewEvent

async def main(url: str, stream: str) -> None:
    async with PostgresEventStore.connect(url, max_size=1) as store:
        await store.append(stream, [NewEvent("drew", 1, b"{}")], expected_version=0)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def test_no_trigger_notifies_inside_an_append(fresh_database_url: str) -> None:
    with psycopg.connect(fresh_database_url) as connection:
        notifying = connection.execute(
            "SELECT t.tgname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid"
            " WHERE t.tgrelid = 'events'::regclass AND p.prosrc ILIKE '%notify%'"
        ).fetchall()
        appending = connection.execute(
            "SELECT prosrc FROM pg_proc WHERE proname = 'append_events'"
        ).fetchall()
    assert notifying == []
    assert len(appending) == 3  # 0026's, and 0021's and 0009's for the releases before it
    assert not any("notify" in source.lower() for (source,) in appending)


async def test_an_append_wakes_a_waiter_in_another_process(fresh_database_url: str) -> None:
    wakeups = PostgresWakeups(fresh_database_url)
    await wakeups.start()
    try:
        stream = stream_id(str(uuid.uuid4()))
        waiter = wakeups.waiter(stream)
        appender = await asyncio.create_subprocess_exec(
            sys.executable, "-c", APPEND_IN_ANOTHER_PROCESS, fresh_database_url, stream, cwd=ROOT
        )
        assert await appender.wait() == 0

        assert await waiter.wait(ARRIVES) is True
    finally:
        await wakeups.stop()


async def test_a_store_told_not_to_wake_sends_nothing(fresh_database_url: str) -> None:
    wakeups = PostgresWakeups(fresh_database_url)
    await wakeups.start()
    try:
        async with open_pool(fresh_database_url, min_size=1, max_size=1) as pool:
            store, silent = (
                PostgresEventStore(pool),
                PostgresEventStore(pool, wake_match_streams=False),
            )
            quiet, loud = stream_id(str(uuid.uuid4())), stream_id(str(uuid.uuid4()))
            quiet_waiter, loud_waiter = wakeups.waiter(quiet), wakeups.waiter(loud)

            await silent.append(quiet, [NewEvent("drew", 1, b"{}")], expected_version=0)
            await store.append(loud, [NewEvent("drew", 1, b"{}")], expected_version=0)

            # The loud append was sent after the quiet one on the same connection, so once it
            # is heard the quiet one would have been too.
            assert await loud_waiter.wait(ARRIVES) is True
            assert await quiet_waiter.wait(STAYS_AWAY) is False
    finally:
        await wakeups.stop()


async def test_a_conflicting_append_wakes_nobody(fresh_database_url: str) -> None:
    wakeups = PostgresWakeups(fresh_database_url)
    await wakeups.start()
    try:
        async with PostgresEventStore.connect(fresh_database_url, max_size=1) as store:
            stream, marker = stream_id(str(uuid.uuid4())), stream_id(str(uuid.uuid4()))
            await store.append(stream, [NewEvent("drew", 1, b"{}")], expected_version=0)
            await asyncio.sleep(STAYS_AWAY)  # that append's own wake-up has come and gone
            waiter, marker_waiter = wakeups.waiter(stream), wakeups.waiter(marker)

            with pytest.raises(ConcurrencyConflict):
                await store.append(stream, [NewEvent("drew", 1, b"{}")], expected_version=0)
            await store.append(marker, [NewEvent("drew", 1, b"{}")], expected_version=0)

            assert await marker_waiter.wait(ARRIVES) is True
            assert await waiter.wait(STAYS_AWAY) is False
    finally:
        await wakeups.stop()


async def test_appends_to_many_streams_at_once_wake_each_one(fresh_database_url: str) -> None:
    wakeups = PostgresWakeups(fresh_database_url)
    await wakeups.start()
    try:
        # 400 appends queue for 4 connections: on a busy machine the last ones wait for one
        # longer than the service's pool timeout, which is not what this test is about.
        async with PostgresEventStore.connect(fresh_database_url, max_size=4, timeout=60) as store:
            # More stream ids than one notification's payload holds.
            streams = [stream_id(str(uuid.uuid4())) for _ in range(400)]
            waiters = [wakeups.waiter(stream) for stream in streams]

            await asyncio.gather(
                *(
                    store.append(stream, [NewEvent("drew", 1, b"{}")], expected_version=0)
                    for stream in streams
                )
            )

            assert await asyncio.gather(*(w.wait(ARRIVES) for w in waiters)) == [True] * 400
    finally:
        await wakeups.stop()
