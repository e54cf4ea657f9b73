"""The reference a load run is measured against: raw single-row ``INSERT`` + ``COMMIT`` on the
same PostgreSQL, from as many concurrent connections as there are matches.

The table is an ordinary one, logged like ``events``: a temporary or unlogged table writes no
WAL, so its commits never wait for the disk and it would flatter the reference. It is created
for the measurement and dropped after it.
"""

from __future__ import annotations

import asyncio
import os
import time

import psycopg
from psycopg import sql

# About the size of one event as the store keeps it.
ROW = (
    "match-00000000-0000-0000-0000-000000000000",
    "discarded",
    b'{"type":"discarded","seat":0,"card":"Td"}' * 3,
)


async def raw_insert_rate(database_url: str, connections: int, seconds: float = 3.0) -> float:
    """Rows per second, each in its own transaction, over ``seconds`` after a short warm-up."""
    table = sql.Identifier(f"loadtest_raw_{os.getpid()}")
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
            await _insert_for(writers, insert, 0.5)
            started = time.perf_counter()
            rows = await _insert_for(writers, insert, seconds)
            return rows / (time.perf_counter() - started)
        finally:
            for writer in writers:
                await writer.close()
            await admin.execute(sql.SQL("DROP TABLE {}").format(table))


async def _insert_for(
    writers: list[psycopg.AsyncConnection[tuple[object, ...]]], insert: sql.Composed, seconds: float
) -> int:
    deadline = time.perf_counter() + seconds

    async def write(conn: psycopg.AsyncConnection[tuple[object, ...]]) -> int:
        rows = 0
        while time.perf_counter() < deadline:
            await conn.execute(insert, ROW)
            await conn.commit()
            rows += 1
        return rows

    return sum(await asyncio.gather(*(write(conn) for conn in writers)))
