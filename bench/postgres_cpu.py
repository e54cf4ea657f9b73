"""PostgreSQL's CPU per operation of the event store, against a raw INSERT + COMMIT.

    python3 dev.py bench postgres_cpu [--database-url URL] [--operations N]

One connection, one operation at a time, so each figure is what one operation costs the
server's processes (all of them: backend, WAL writer, checkpointer...), measured from their
CPU times before and after N operations. The database must run on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
import uuid
from collections.abc import Awaitable, Callable

from adapters.postgres.event_store import Pool, PostgresEventStore, open_pool
from bench.database import bench_database
from bench.floor import postmaster_pid, tree_cpu
from service.ports.event_store import NewEvent

EVENT = NewEvent("discarded", 1, b'{"type":"discarded","seat":0,"card":"Td"}')
RAW_TABLE = "bench_postgres_cpu_raw"
RAW_INSERT = f"INSERT INTO {RAW_TABLE} (stream_id, type, data) VALUES (%s, %s, %s)"

RAW_EVENTS = "bench_postgres_cpu_events"
RAW_EVENTS_INSERT = (
    f"INSERT INTO {RAW_EVENTS} (match_id, stream_id, version, type, schema_version, data, hash) "
    "VALUES (%s, %s, 1, %s, 1, %s, %s), (%s, %s, 2, %s, 1, %s, %s)"
)

Operation = Callable[[int], Awaitable[object]]


async def measure(name: str, postgres: int, operations: int, operation: Operation) -> None:
    await operation(0)
    cpu, started = tree_cpu(postgres), time.perf_counter()
    for i in range(operations):
        await operation(i)
    spent, seconds = tree_cpu(postgres) - cpu, time.perf_counter() - started
    print(
        f"{name:<42} {spent / operations * 1000:>8.3f} {seconds / operations * 1000:>8.3f}",
        flush=True,
    )


async def run(url: str, operations: int) -> None:
    postgres = postmaster_pid(url)
    async with open_pool(url, min_size=1, max_size=1) as pool:
        store = PostgresEventStore(pool)
        # Shaped as a match's streams are (``match-<uuid>``): each of its own match.
        streams = [f"match-{uuid.UUID(int=i + 1)}" for i in range(operations)]
        versions = dict.fromkeys(streams, 0)

        async def append(i: int) -> None:
            stream = streams[i]
            await store.append(stream, [EVENT, EVENT], expected_version=versions[stream])
            versions[stream] += 2

        # The same, once every stream exists, with no wake-up after it: the append alone.
        quiet = PostgresEventStore(pool, wake_match_streams=False)

        async def append_more(i: int) -> None:
            stream = streams[i]
            await quiet.append(stream, [EVENT, EVENT], expected_version=versions[stream])
            versions[stream] += 2

        async def read_tail(i: int) -> None:
            await store.read_stream(streams[i], after_version=versions[streams[i]])

        async def read_all(i: int) -> None:
            await store.read_stream(streams[i])

        async def stream_version(i: int) -> None:
            await store.stream_version(streams[i])

        await _create_raw_table(pool)
        try:
            print(f"{'operation':<42} {'CPU ms':>8} {'wall ms':>8}")
            await measure("raw INSERT + COMMIT (one row)", postgres, operations, _raw(pool, 1))
            await measure("raw INSERT + COMMIT (two rows)", postgres, operations, _raw(pool, 2))
            await measure(
                "raw INSERT + COMMIT (two rows, as events)",
                postgres,
                operations,
                _raw_events(pool),
            )
            await measure("append of two events (append_events)", postgres, operations, append)
            await measure(
                "the same, existing streams, no wake-up", postgres, operations, append_more
            )
            await measure("read a stream's tail (nothing new)", postgres, operations, read_tail)
            await measure("read a whole stream (2-4 events)", postgres, operations, read_all)
            await measure("a stream's version", postgres, operations, stream_version)
        finally:
            async with pool.connection() as connection:
                await connection.execute(f"DROP TABLE {RAW_TABLE}, {RAW_EVENTS}")


async def _create_raw_table(pool: Pool) -> None:
    async with pool.connection() as connection:
        await connection.execute(
            f"CREATE TABLE {RAW_TABLE} (id bigserial PRIMARY KEY, stream_id text NOT NULL, "
            "type text NOT NULL, data bytea NOT NULL)"
        )
        # Every column, constraint and index of ``events`` (and its generated ``body``), no
        # trigger and no stream head: what an append's rows cost by themselves.
        await connection.execute(f"CREATE TABLE {RAW_EVENTS} (LIKE events INCLUDING ALL)")


def _raw(pool: Pool, rows: int) -> Operation:
    insert = RAW_INSERT + ", (%s, %s, %s)" * (rows - 1)

    async def operation(i: int) -> None:
        async with pool.connection() as connection:
            await connection.execute(insert, (f"match-{i}", EVENT.type, EVENT.data) * rows)

    return operation


def _raw_events(pool: Pool) -> Operation:
    streams = itertools.count()  # a new stream each time: the warm-up runs operation 0 twice

    async def operation(i: int) -> None:
        match_id = uuid.UUID(int=next(streams) + 1)
        row = (match_id, f"match-{match_id}", EVENT.type, EVENT.data, bytes(32))
        async with pool.connection() as connection:
            await connection.execute(RAW_EVENTS_INSERT, row * 2)

    return operation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="PostgreSQL server to use (default: embedded)")
    parser.add_argument("--operations", type=int, default=1500, help="of each kind (1500)")
    args = parser.parse_args()
    with bench_database(args.database_url, "gin_postgres_cpu") as url:
        asyncio.run(run(url, args.operations))


if __name__ == "__main__":
    main()
