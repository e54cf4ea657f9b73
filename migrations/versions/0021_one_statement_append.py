"""An append is one statement: the hashes come from the adapter, the version check guards the
insert of every row at once.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02

``append_events`` was a PL/pgSQL loop: lock the stream head, hash one event with ``sha256``,
insert it, again for the next, then move the head. Now the adapter chains the hashes itself
(``service.store.hash_chain.chain``, the formula the database used, so every stored hash stays
what it was and verification is unchanged) and passes them, with the hash of the head it
chained them to, to a function whose body is one statement:

- the stream head moves only if it is at the expected version *and* has the hash the new events
  were chained to (an ``UPDATE ... WHERE version = expected AND last_hash = previous``, or for a
  new stream an ``INSERT ... ON CONFLICT DO UPDATE WHERE version = 0``). Two appends at the same
  version, from any connections, wait on that one row; the second finds it moved and changes
  nothing. That row lock is the concurrency guarantee, as before;
- the events are inserted by one ``INSERT ... SELECT FROM unnest(...)``, only if the head moved;
- the idempotency key is looked up, and written, in the same statement;
- the answer says what happened and, when nothing was written, the head the statement saw, so
  the adapter can chain again to it (its cached head was stale) without reading it first.

A key committed by an append to another stream while this one ran still makes the key's insert
fail with a unique violation; the adapter retries once, as it did. One thing the statement
cannot see is a head moved by another append that committed after the statement's snapshot
was taken: the update waits for it, then finds the head moved and changes nothing, while the
head it read says the version was right. The adapter sends the append again, and that one
sees the conflict (or, for the same request, the key to replay).

The new function is an overload of ``append_events`` (it takes the previous hash and the
hashes); 0009's, which chains in SQL, stays for a server of the release before this one that
is still running during the upgrade: both take the same row lock on the head and chain the same
way, so they may append to one stream side by side. Today's adapter calls the old one only on a
database not yet upgraded. A later migration may drop it once no such server can be left.

``append_events`` still runs ``SECURITY DEFINER`` as ``gin_owner`` (the owner of ``events``)
with a fixed ``search_path``: the service's role still cannot write ``events``, ``streams`` or
``idempotency_keys`` but through it, so versions stay gap-free and the head in step with its
last event. The hashes are now the caller's to compute and the function stores them as given:
as before, whoever can call it can append what they like, and verification recomputes every
link from the events themselves. It is PL/pgSQL only so that its statement's plan is kept
between calls (an SQL function that may not be inlined is planned again on every call).

Every index and trigger on ``events`` is kept; each has a reader or a guarantee:

- ``events_pkey`` (``position``): a feed or subscriber's cursor is a position, found by it
  (``READ_ALL_AFTER`` and the check that a position exists);
- ``events_stream_version_key`` (``stream_id, version``, unique): reading a stream's tail, the
  idle-match sweep's join to each head, a key's replayed head hash; and the last guard that no
  version is stored twice;
- ``events_log_order`` (``transaction_id, position``): the global log in commit order (the
  feed, webhooks, the player projector, the log tree);
- ``events_deals``, ``events_hand_ends``: the feed's latest deal and hand end of each match;
- ``events_match_won``, ``events_match_ended``: the bot sweep and the idle-match sweep skip
  ended matches;
- ``events_append_only``, ``events_no_truncate``: stored events are never changed or removed
  (they fire on UPDATE, DELETE, TRUNCATE only: an insert never reaches them);
- ``events_keep_match_deadline``: a match has a deadline exactly when its committed events say
  so, kept in the append's own transaction (its ``WHEN`` lets the function run only for the
  three types it concerns).

The four partial indexes cost an insert only a test of its type unless the row is one they
hold, and the trigger's ``WHEN`` likewise. No stored row changes: the migration only adds the
function. docs/scaling.md has what it changed, measured: the loop and the hashing in SQL turned
out not to be what made an append cost about twice a raw insert of its rows.
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

ARGUMENTS = "text, bigint, bytea, text[], integer[], bytea[], bytea[], text, bytea"
APPEND_EVENTS = f"append_events({ARGUMENTS})"

# How the head moves: for a new stream it is made (a row at version 0 may have been left by an
# append of an earlier release that replayed a key instead), otherwise it is updated.
CREATE_HEAD = """
        INSERT INTO streams AS s (stream_id, version, last_hash)
        SELECT p_stream_id, cardinality(p_types), p_hashes[cardinality(p_hashes)]
        WHERE NOT EXISTS (SELECT FROM key)
        ON CONFLICT (stream_id) DO UPDATE
            SET version = excluded.version, last_hash = excluded.last_hash
            WHERE s.version = 0
        RETURNING s.version"""
MOVE_HEAD = """
        UPDATE streams s
        SET version = p_expected_version + cardinality(p_types),
            last_hash = p_hashes[cardinality(p_hashes)]
        WHERE s.stream_id = p_stream_id AND s.version = p_expected_version
          AND s.last_hash = p_previous_hash AND NOT EXISTS (SELECT FROM key)
        RETURNING s.version"""

STATEMENT = """
    RETURN QUERY
    WITH key AS (
        SELECT k.stream_id = p_stream_id AND k.fingerprint = p_fingerprint AS same,
               k.first_version, k.last_version, k.positions, e.hash
        FROM idempotency_keys k
        LEFT JOIN events e ON e.stream_id = k.stream_id AND e.version = k.last_version
        WHERE k.key = p_idempotency_key
    ), head AS (
        SELECT s.version, s.last_hash FROM streams s WHERE s.stream_id = p_stream_id
    ), moved AS (@MOVE@
    ), written AS (
        INSERT INTO events (stream_id, version, type, schema_version, data, hash)
        SELECT p_stream_id, p_expected_version + e.n, e.type, e.schema_version, e.data, e.hash
        FROM moved,
             unnest(p_types, p_schema_versions, p_data, p_hashes)
                 WITH ORDINALITY AS e(type, schema_version, data, hash, n)
        ORDER BY e.n
        RETURNING events.position, events.version
    ), appended AS (
        SELECT m.version, (SELECT array_agg(w.position ORDER BY w.version) FROM written w) AS ps
        FROM moved m
    ), kept AS (
        INSERT INTO idempotency_keys
            (key, stream_id, fingerprint, first_version, last_version, positions)
        SELECT p_idempotency_key, p_stream_id, p_fingerprint, p_expected_version + 1,
               a.version, a.ps
        FROM appended a
        WHERE p_idempotency_key IS NOT NULL
    )
    SELECT
        CASE WHEN k.same THEN 'replayed' WHEN NOT k.same THEN 'key_reused'
             WHEN a.version IS NOT NULL THEN 'appended' ELSE 'conflict' END,
        coalesce(k.last_version, a.version, h.version, 0::bigint),
        coalesce(k.first_version, p_expected_version + 1),
        coalesce(k.last_version, a.version),
        coalesce(k.positions, a.ps),
        CASE WHEN k.same IS NOT NULL THEN k.hash
             WHEN a.version IS NOT NULL THEN p_hashes[cardinality(p_hashes)]
             ELSE h.last_hash END
    FROM (SELECT) AS one
    LEFT JOIN key k ON true
    LEFT JOIN appended a ON true
    LEFT JOIN head h ON true;"""

APPEND = f"""
-- One statement: check the key, move the head if it is at the expected version and hash,
-- insert the events already chained by the caller, remember the key.
-- outcome: 'appended'; 'replayed' (the key's first result); 'key_reused'; 'conflict', where
-- current_version and last_hash are the head as the statement saw it (version 0 and NULL for
-- no stream).
CREATE FUNCTION append_events(
    p_stream_id text,
    p_expected_version bigint,
    p_previous_hash bytea,
    p_types text[],
    p_schema_versions integer[],
    p_data bytea[],
    p_hashes bytea[],
    p_idempotency_key text,
    p_fingerprint bytea,
    OUT outcome text,
    OUT current_version bigint,
    OUT first_version bigint,
    OUT last_version bigint,
    OUT positions bigint[],
    OUT last_hash bytea
)
RETURNS SETOF record
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    IF cardinality(p_hashes) IS DISTINCT FROM cardinality(p_types) THEN
        RAISE EXCEPTION 'one hash per event' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_expected_version = 0 THEN{STATEMENT.replace("@MOVE@", CREATE_HEAD)}
    ELSE{STATEMENT.replace("@MOVE@", MOVE_HEAD)}
    END IF;
END
$$;
"""

# Owned by whoever owns ``events``: ``gin_owner`` since 0008, but a database restored from a
# dump made without owners (``tests/old_records``) has its tables owned by whoever restored it,
# and a function that writes them must run as that role.
PRIVILEGES = f"""
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION {APPEND_EVENTS} OWNER TO %I',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class
                    WHERE oid = 'public.events'::regclass));
END
$$;
REVOKE ALL ON FUNCTION {APPEND_EVENTS} FROM PUBLIC;
ALTER FUNCTION {APPEND_EVENTS} SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
GRANT EXECUTE ON FUNCTION {APPEND_EVENTS} TO gin_app;
"""


def upgrade() -> None:
    op.execute(APPEND)
    op.execute(PRIVILEGES)


def downgrade() -> None:
    # 0009's function, still here, chains in SQL from the head's stored hash: the rows written
    # since carry the hashes it would have computed, so nothing else changes back.
    op.execute(f"DROP FUNCTION {APPEND_EVENTS}")
