"""Idle matches in PostgreSQL: read from ``streams`` and ``events`` (the last event's
``recorded_at``), claimed in ``match_abandon_claims`` (``migrations/versions/0016_abandonment.py``).

The only rows written are the claims, one per idle match found, never one per command."""

from __future__ import annotations

from datetime import datetime, timedelta

from adapters.postgres.event_store import Pool
from adapters.postgres.stream_statements import has_match_ids
from service.ports.idle_matches import IdleMatch

# The last event of each match stream is found by the stream head's version through the
# events' (stream_id, version) key; ended matches are told by the partial indexes
# ``events_match_won`` and ``events_match_ended``. A claim row whose lease has run out is
# taken over; one still leased is left to its claimer. A sweep of every match: each join names
# the match too, so that on tables distributed by match every join stays within one shard.
CLAIM = """
WITH idle AS (
    SELECT s.match_id, s.stream_id, s.version, e.recorded_at
    FROM streams s
    JOIN events e ON e.match_id = s.match_id AND e.stream_id = s.stream_id
                 AND e.version = s.version
    WHERE (s.stream_id LIKE 'match-%%' OR s.stream_id LIKE 'format-match-%%')
      AND e.recorded_at <= %(idle_since)s
      AND NOT EXISTS (SELECT 1 FROM events w WHERE w.match_id = s.match_id
                      AND w.stream_id = s.stream_id AND w.type = 'match_won')
      AND NOT EXISTS (SELECT 1 FROM events f WHERE f.match_id = s.match_id
                      AND f.stream_id = s.stream_id AND f.type = 'format_match_won')
      AND NOT EXISTS (SELECT 1 FROM events x WHERE x.match_id = s.match_id
                      AND x.stream_id = s.stream_id AND x.type = 'match_ended')
      AND NOT EXISTS (SELECT 1 FROM match_abandon_claims c WHERE c.match_id = s.match_id
                      AND c.stream_id = s.stream_id AND c.lease_until > %(now)s)
    ORDER BY e.recorded_at
    LIMIT %(limit)s
), claimed AS (
    INSERT INTO match_abandon_claims AS c (match_id, stream_id, lease_until)
    SELECT match_id, stream_id, %(lease_until)s FROM idle
    ON CONFLICT (stream_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
        WHERE c.lease_until <= %(now)s
    RETURNING c.stream_id
)
SELECT idle.stream_id, idle.version FROM idle JOIN claimed USING (stream_id)
ORDER BY idle.recorded_at
"""
# As before migration 0026, for a database it has not reached yet (no match id).
CLAIM_BEFORE_0026 = """
WITH idle AS (
    SELECT s.stream_id, s.version, e.recorded_at
    FROM streams s
    JOIN events e ON e.stream_id = s.stream_id AND e.version = s.version
    WHERE (s.stream_id LIKE 'match-%%' OR s.stream_id LIKE 'format-match-%%')
      AND e.recorded_at <= %(idle_since)s
      AND NOT EXISTS (SELECT 1 FROM events w
                      WHERE w.stream_id = s.stream_id AND w.type = 'match_won')
      AND NOT EXISTS (SELECT 1 FROM events f
                      WHERE f.stream_id = s.stream_id AND f.type = 'format_match_won')
      AND NOT EXISTS (SELECT 1 FROM events x
                      WHERE x.stream_id = s.stream_id AND x.type = 'match_ended')
      AND NOT EXISTS (SELECT 1 FROM match_abandon_claims c
                      WHERE c.stream_id = s.stream_id AND c.lease_until > %(now)s)
    ORDER BY e.recorded_at
    LIMIT %(limit)s
), claimed AS (
    INSERT INTO match_abandon_claims AS c (stream_id, lease_until)
    SELECT stream_id, %(lease_until)s FROM idle
    ON CONFLICT (stream_id) DO UPDATE SET lease_until = EXCLUDED.lease_until
        WHERE c.lease_until <= %(now)s
    RETURNING c.stream_id
)
SELECT idle.stream_id, idle.version FROM idle JOIN claimed USING (stream_id)
ORDER BY idle.recorded_at
"""


class PostgresIdleMatches:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool
        self._by_match: bool | None = None  # whether the rows carry their match id, once asked

    async def claim_idle(
        self, idle_since: datetime, now: datetime, *, limit: int, lease_seconds: float
    ) -> list[IdleMatch]:
        params = {
            "idle_since": idle_since,
            "now": now,
            "limit": limit,
            "lease_until": now + timedelta(seconds=lease_seconds),
        }
        async with self._pool.connection() as conn:
            if self._by_match is None:
                self._by_match = await has_match_ids(conn)
            claim = CLAIM if self._by_match else CLAIM_BEFORE_0026
            rows = await (await conn.execute(claim, params)).fetchall()
        return [IdleMatch(stream, int(version)) for stream, version in rows]
