"""The statement an append is, its parameters, and what its answer means.

One statement (migration 0026's ``append_events``: 0021's, by match) checks the idempotency key,
moves the stream's head if it is at the expected version and hash, and inserts the events the
adapter chained; on a conflict the same statement brings the events after the expected version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adapters.postgres.arrays import bytea_array, int_array, text_array
from adapters.postgres.match_ids import match_id_of_stream
from service.errors import IdempotencyKeyReused
from service.ports.event_store import (
    AppendResult,
    ConcurrencyConflict,
    NewEvent,
    StoredEvent,
)
from service.store.hash_chain import chain, request_fingerprint

COLUMNS = "stream_id, version, position, type, schema_version, data, hash, recorded_at"

# The append, and on a conflict the events after the expected version, in one round trip: a
# caller that decided on a stale cached state folds them and decides again without reading
# first. The tail is read only when the function answers "conflict" (a one-time filter: an
# append that succeeds scans nothing more), as of the statement's start: an append that
# committed after that but before the function looked leaves the tail short of the head the
# function saw, and then the caller reads the rest (``ConcurrencyConflict`` keeps only a whole
# tail).
APPEND = f"""
SELECT a.outcome, a.current_version, a.first_version, a.last_version, a.positions, a.last_hash,
       t.*
FROM append_events(%b::uuid, %b::text, %b::bigint, %b::bytea, %b::text[], %b::integer[],
                   %b::bytea[], %b::bytea[], %b::text, %b) AS a
LEFT JOIN LATERAL (
    SELECT {COLUMNS} FROM events
    WHERE a.outcome = 'conflict' AND match_id = %b::uuid AND stream_id = %b::text
      AND version > %b::bigint
    OFFSET 0  -- kept a subquery, so the outcome test gates the scan instead of filtering a join
) AS t ON true
ORDER BY t.version
"""
# What a database before migration 0026 has (0021's function, which knows no match id) and one
# before 0021 (0009's, which chains in SQL): a server started before the upgrade and still
# running after it goes on appending; the migrations leave both functions in place for it.
APPEND_BEFORE_0026 = f"""
SELECT a.outcome, a.current_version, a.first_version, a.last_version, a.positions, a.last_hash,
       t.*
FROM append_events(%b::text, %b::bigint, %b::bytea, %b::text[], %b::integer[], %b::bytea[],
                   %b::bytea[], %b::text, %b) AS a
LEFT JOIN LATERAL (
    SELECT {COLUMNS} FROM events
    WHERE a.outcome = 'conflict' AND stream_id = %b::text AND version > %b::bigint
    OFFSET 0
) AS t ON true
ORDER BY t.version
"""
APPEND_BEFORE_0021 = """
SELECT outcome, current_version, first_version, last_version, positions, last_hash
FROM append_events(%b::text, %b::bigint, %b::text[], %b::integer[], %b::bytea[], %b::text, %b)
"""
# Each statement, newest first, with the places in ``append_params`` of what it is sent.
APPENDS: tuple[tuple[str, tuple[int, ...]], ...] = (
    (APPEND, tuple(range(13))),
    (APPEND_BEFORE_0026, (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12)),
    (APPEND_BEFORE_0021, (1, 2, 4, 5, 6, 8, 9)),
)


def append_params(
    stream_id: str,
    events: Sequence[NewEvent],
    expected_version: int,
    previous: bytes,
    idempotency_key: str | None,
    fingerprint: bytes | None = None,
) -> tuple[object, ...]:
    """The parameters of ``APPEND`` for one append, its events chained to ``previous``."""
    if idempotency_key is not None and fingerprint is None:
        fingerprint = request_fingerprint(stream_id, expected_version, events)
    match_id = match_id_of_stream(stream_id)
    return (
        match_id,
        stream_id,
        expected_version,
        previous,
        text_array([event.type for event in events]),
        int_array([event.schema_version for event in events]),
        bytea_array([event.data for event in events]),
        bytea_array(chain(previous, stream_id, expected_version + 1, events)),
        idempotency_key,
        fingerprint if idempotency_key is not None else None,
        match_id,
        stream_id,
        expected_version,
    )


def append_outcome(
    stream_id: str, expected_version: int, rows: list[tuple[Any, ...]]
) -> AppendResult:
    outcome, current, first, last, positions, last_hash = rows[0][:6]
    if outcome == "conflict":
        # Each row carries one event of the tail after the answer's six columns (none before
        # migration 0021's statement, or when the tail is empty: a row of nulls).
        tail = [StoredEvent(*row[6:]) for row in rows if len(row) > 6 and row[6] is not None]
        raise ConcurrencyConflict(stream_id, expected_version, current, tail)
    if outcome == "key_reused":
        raise IdempotencyKeyReused()
    replayed = outcome == "replayed"
    return AppendResult(stream_id, first, last, tuple(positions), last_hash, replayed)
