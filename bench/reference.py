"""The reference the service is measured against: raw single-row ``INSERT`` + ``COMMIT`` on the
same PostgreSQL, from a number of concurrent connections, each row its own transaction.

One implementation for every caller: the load test and the HTTP benchmark run it for a time,
the store benchmark for a number of rows per connection (as its event store appends run).

The table is an ordinary one, logged like ``events``: a temporary or unlogged table writes no
WAL, so its commits never wait for the disk and it would flatter the reference. It is created
for the measurement and dropped after it, so the database is left as it was found.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from itertools import count

import psycopg
from psycopg import sql

# About the size of one event as the store keeps it.
ROW = (
    "match-00000000-0000-0000-0000-000000000000",
    "discarded",
    b'{"type":"discarded","seat":0,"card":"Td"}' * 3,
)
WARM_UP_SECONDS = 0.5

Connection = psycopg.AsyncConnection[tuple[object, ...]]
_tables = count(1)


@dataclass
class RawInserts:
    """What one measurement saw: each row's time from ``INSERT`` sent to ``COMMIT`` answered."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        """Rows committed per second."""
        return self.rows / self.seconds if self.seconds else 0.0


async def raw_inserts(
    database_url: str,
    connections: int,
    *,
    seconds: float | None = None,
    rows_each: int | None = None,
    row: tuple[str, str, bytes] = ROW,
) -> RawInserts:
    """Insert and commit rows from ``connections`` connections at once, for ``seconds`` or
    ``rows_each`` rows per connection (exactly one of the two), after a short warm-up."""
    if (seconds is None) == (rows_each is None):
        raise ValueError("give the measurement either seconds or rows_each")
    table = sql.Identifier(f"bench_raw_{os.getpid()}_{next(_tables)}")
    insert = sql.SQL("INSERT INTO {} (stream_id, type, data) VALUES (%s, %s, %s)").format(table)
    async with await psycopg.AsyncConnection.connect(database_url, autocommit=True) as admin:
        await admin.execute(
            sql.SQL(
                "CREATE TABLE {} (id bigserial PRIMARY KEY, stream_id text NOT NULL, "
                "type text NOT NULL, data bytea NOT NULL)"
            ).format(table)
        )
        writers = [await psycopg.AsyncConnection.connect(database_url) for _ in range(connections)]
        try:
            await _measure(writers, insert, row, WARM_UP_SECONDS, None)
            return await _measure(writers, insert, row, seconds, rows_each)
        finally:
            for writer in writers:
                await writer.close()
            await admin.execute(sql.SQL("DROP TABLE {}").format(table))


async def _measure(
    writers: list[Connection],
    insert: sql.Composed,
    row: tuple[str, str, bytes],
    seconds: float | None,
    rows_each: int | None,
) -> RawInserts:
    run = RawInserts()
    started = time.perf_counter()
    deadline = started + seconds if seconds is not None else float("inf")
    limit = rows_each if rows_each is not None else -1

    async def write(conn: Connection) -> None:
        done = 0
        while done != limit and time.perf_counter() < deadline:
            sent = time.perf_counter()
            await conn.execute(insert, row)
            await conn.commit()
            run.latencies.append(time.perf_counter() - sent)
            done += 1

    await asyncio.gather(*(write(conn) for conn in writers))
    run.seconds = time.perf_counter() - started
    return run
