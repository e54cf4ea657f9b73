"""The event store's statements, as they name a stream's match (migration 0026), and as they
were before it.

Every statement on one match's rows names the match (``match_id = $1``: see
``adapters/postgres/match_ids.py``). A server of this release may meet a database its
migration has not reached yet (it runs until ``gin db upgrade`` does, and goes on after): it
then sends the statements of ``BEFORE_0026``, which take the same parameters and leave the match
id out. ``has_match_ids`` tells which, once per store.
"""

from __future__ import annotations

from dataclasses import dataclass

from psycopg import AsyncConnection

from adapters.postgres.append_statement import COLUMNS

READ_STREAM = f"""
SELECT {COLUMNS} FROM events
WHERE match_id = %s AND stream_id = %s AND version > %s ORDER BY version
"""

READ_ALL_FROM_START = f"""
SELECT {COLUMNS} FROM events
WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY transaction_id, position
LIMIT %s
"""

READ_ALL_AFTER = f"""
SELECT {COLUMNS} FROM events
WHERE (transaction_id, position) > (SELECT transaction_id, position FROM events WHERE position = %s)
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY transaction_id, position
LIMIT %s
"""

# The named streams' rows are read whole through the (stream_id, version) index (MATERIALIZED:
# else the planner may walk the log's own order until LIMIT rows turn up, reading all of it
# for a stream with few events), then put in the log's order and cut at READ_ALL_AFTER's
# horizon. A match's streams hold thousands of events at most, however long the log.
READ_STREAMS_IN_LOG = f"""
WITH wanted AS MATERIALIZED (
    SELECT {COLUMNS}, transaction_id FROM events
    WHERE match_id = ANY(%(matches)s) AND stream_id = ANY(%(streams)s)
)
SELECT {COLUMNS} FROM wanted
WHERE (%(after)s = 0 OR (transaction_id, position) >
       (SELECT transaction_id, position FROM events WHERE position = %(after)s))
  AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
ORDER BY transaction_id, position
LIMIT %(limit)s
"""

# By the key alone: the port's lookup names no stream (the service's keys name their match).
FIND_IDEMPOTENT = """
SELECT k.fingerprint, k.stream_id, k.first_version, k.last_version, k.positions, e.hash
FROM idempotency_keys k
LEFT JOIN events e
    ON e.match_id = k.match_id AND e.stream_id = k.stream_id AND e.version = k.last_version
WHERE k.key = %s
"""

SAVE_SNAPSHOT = """
INSERT INTO snapshots AS s (match_id, stream_id, version, state_type, data)
VALUES (%s, %s, %s, %s, %s)
ON CONFLICT (stream_id) DO UPDATE
SET version = excluded.version, state_type = excluded.state_type, data = excluded.data,
    saved_at = now()
WHERE s.version <= excluded.version
"""

READ_HEAD = "SELECT version, last_hash FROM streams WHERE match_id = %s AND stream_id = %s"
LOAD_SNAPSHOT = """
SELECT stream_id, version, state_type, data FROM snapshots WHERE match_id = %s AND stream_id = %s
"""
# Whether a cursor names an event of the log: by position, which is global.
POSITION_EXISTS = "SELECT 1 FROM events WHERE position = %s"


@dataclass(frozen=True)
class Statements:
    """One match's statements, each with the parameters of the ones above."""

    read_stream: str
    read_streams_in_log: str
    find_idempotent: str
    save_snapshot: str
    read_head: str
    load_snapshot: str


BY_MATCH = Statements(
    READ_STREAM, READ_STREAMS_IN_LOG, FIND_IDEMPOTENT, SAVE_SNAPSHOT, READ_HEAD, LOAD_SNAPSHOT
)

# Before 0026: the match id is passed all the same, and only checked to be there.
READ_STREAM_BEFORE_0026 = f"""
SELECT {COLUMNS} FROM events
WHERE %s::uuid IS NOT NULL AND stream_id = %s AND version > %s ORDER BY version
"""
READ_STREAMS_IN_LOG_BEFORE_0026 = READ_STREAMS_IN_LOG.replace(
    "WHERE match_id = ANY(%(matches)s) AND", "WHERE %(matches)s::uuid[] IS NOT NULL AND"
)
FIND_IDEMPOTENT_BEFORE_0026 = FIND_IDEMPOTENT.replace("e.match_id = k.match_id AND ", "")
SAVE_SNAPSHOT_BEFORE_0026 = """
INSERT INTO snapshots AS s (stream_id, version, state_type, data)
SELECT v.stream_id, v.version, v.state_type, v.data
FROM (VALUES (%s::uuid, %s, %s::bigint, %s, %s::bytea))
    AS v(match_id, stream_id, version, state_type, data)
ON CONFLICT (stream_id) DO UPDATE
SET version = excluded.version, state_type = excluded.state_type, data = excluded.data,
    saved_at = now()
WHERE s.version <= excluded.version
"""
READ_HEAD_BEFORE_0026 = (
    "SELECT version, last_hash FROM streams WHERE %s::uuid IS NOT NULL AND stream_id = %s"
)
LOAD_SNAPSHOT_BEFORE_0026 = """
SELECT stream_id, version, state_type, data FROM snapshots
WHERE %s::uuid IS NOT NULL AND stream_id = %s
"""
BEFORE_0026 = Statements(
    READ_STREAM_BEFORE_0026,
    READ_STREAMS_IN_LOG_BEFORE_0026,
    FIND_IDEMPOTENT_BEFORE_0026,
    SAVE_SNAPSHOT_BEFORE_0026,
    READ_HEAD_BEFORE_0026,
    LOAD_SNAPSHOT_BEFORE_0026,
)

HAS_MATCH_IDS = """
SELECT EXISTS (SELECT FROM pg_attribute
               WHERE attrelid = 'public.events'::regclass AND attname = 'match_id')
"""


async def has_match_ids(connection: AsyncConnection[tuple[object, ...]]) -> bool:
    """Whether the database is at migration 0026 or later (its rows carry their match id)."""
    cursor = await connection.execute(HAS_MATCH_IDS)
    row = await cursor.fetchone()
    return bool(row and row[0])
