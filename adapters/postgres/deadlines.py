"""Deadlines in PostgreSQL: ``match_deadlines``, kept by a trigger on ``events``
(``migrations/versions/0009_lifecycle.py``); this adapter only reads and leases rows."""

from __future__ import annotations

from datetime import datetime, timedelta

from adapters.postgres.event_store import Pool
from adapters.postgres.stream_statements import has_match_ids

NEXT_WAKEUP = "SELECT min(greatest(due_at, lease_until)) FROM match_deadlines"

CLAIM = """
WITH due AS (
    SELECT match_id, stream_id FROM match_deadlines
    WHERE due_at <= %(now)s AND (lease_until IS NULL OR lease_until <= %(now)s)
    ORDER BY due_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
)
UPDATE match_deadlines d SET lease_until = %(lease_until)s
FROM due WHERE d.match_id = due.match_id AND d.stream_id = due.stream_id
RETURNING d.stream_id, d.due_at
"""
# As before migration 0026, for a database it has not reached yet (no match id).
CLAIM_BEFORE_0026 = """
WITH due AS (
    SELECT stream_id FROM match_deadlines
    WHERE due_at <= %(now)s AND (lease_until IS NULL OR lease_until <= %(now)s)
    ORDER BY due_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
)
UPDATE match_deadlines d SET lease_until = %(lease_until)s
FROM due WHERE d.stream_id = due.stream_id
RETURNING d.stream_id, d.due_at
"""

PENDING = "SELECT count(*) FROM match_deadlines"


class PostgresDeadlines:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._by_match: bool | None = None  # whether the rows carry their match id, once asked

    async def next_wakeup(self) -> datetime | None:
        async with self._pool.connection() as conn:
            row = await (await conn.execute(NEXT_WAKEUP)).fetchone()
        return None if row is None else row[0]

    async def claim_due(self, now: datetime, *, limit: int, lease_seconds: float) -> list[str]:
        params = {
            "now": now,
            "limit": limit,
            "lease_until": now + timedelta(seconds=lease_seconds),
        }
        async with self._pool.connection() as conn:
            if self._by_match is None:
                self._by_match = await has_match_ids(conn)
            claim = CLAIM if self._by_match else CLAIM_BEFORE_0026
            rows = await (await conn.execute(claim, params)).fetchall()
        return [stream for stream, _ in sorted(rows, key=lambda row: row[1])]

    async def pending(self) -> int:
        async with self._pool.connection() as conn:
            row = await (await conn.execute(PENDING)).fetchone()
        return 0 if row is None else int(row[0])
