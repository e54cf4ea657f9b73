"""PostgreSQL's CPU per operation of the event store, against a raw INSERT + COMMIT.

    python3 dev.py bench postgres_cpu [--database-url URL] [--operations N]

One connection, one operation at a time, so each figure is what one operation costs the
server's processes (all of them: backend, WAL writer, checkpointer...), measured from their
CPU times before and after N operations. The database must run on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

from adapters.postgres.event_store import Pool, PostgresEventStore, open_pool
from bench.database import bench_database
from bench.floor import postmaster_pid, tree_cpu
from service.ports.event_store import NewEvent

EVENT = NewEvent("discarded", 1, b'{"type":"discarded","seat":0,"card":"Td"}')
RAW_TABLE = "bench_postgres_cpu_raw"
RAW_INSERT = f"INSERT INTO {RAW_TABLE} (stream_id, type, data) VALUES (%s, %s, %s)"

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
        streams = [f"match-{i:036d}" for i in range(operations)]
        versions = dict.fromkeys(streams, 0)

        async def append(i: int) -> None:
            stream = streams[i]
            await store.append(stream, [EVENT, EVENT], expected_version=versions[stream])
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
            await measure("append of two events (append_events)", postgres, operations, append)
            await measure("read a stream's tail (nothing new)", postgres, operations, read_tail)
            await measure("read a whole stream (2-4 events)", postgres, operations, read_all)
            await measure("a stream's version", postgres, operations, stream_version)
        finally:
            async with pool.connection() as connection:
                await connection.execute(f"DROP TABLE {RAW_TABLE}")


async def _create_raw_table(pool: Pool) -> None:
    async with pool.connection() as connection:
        await connection.execute(
            f"CREATE TABLE {RAW_TABLE} (id bigserial PRIMARY KEY, stream_id text NOT NULL, "
            "type text NOT NULL, data bytea NOT NULL)"
        )


def _raw(pool: Pool, rows: int) -> Operation:
    insert = RAW_INSERT + ", (%s, %s, %s)" * (rows - 1)

    async def operation(i: int) -> None:
        async with pool.connection() as connection:
            await connection.execute(insert, (f"match-{i}", EVENT.type, EVENT.data) * rows)

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
