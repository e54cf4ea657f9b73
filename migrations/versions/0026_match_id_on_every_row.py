"""Every row of one match's streams carries the id of its match.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-02

A match writes to its own stream (``match-<id>`` or ``format-match-<id>``) and its fairness
stream (``fairness-<id>``); the tables keyed by stream (``events``, ``streams``, ``snapshots``,
``idempotency_keys``, ``match_deadlines``, ``match_abandon_claims``) get a ``match_id`` column,
so that a distributed PostgreSQL (Citus) can place every row of one match on one shard and
route each statement to it: the distribution column must be in the rows and in the statements'
filters (``docs/scaling.md``, "Partitioning by match"). The registry's tables (``matches``,
``match_seats``, ``match_invites``) have had it from the start.

The column is ``NOT NULL``, as a distribution column must be. A stream of no match (the
service writes none; tests and benchmarks do, such as ``match-1``) has the nil UUID, so every
statement filters with a plain ``match_id = $1``: all such streams would share one shard.

Existing rows are filled from their stream id, by ``match_id_of_stream`` (the rule
``adapters/postgres/match_ids.py`` follows in Python). ``events`` is append-only: its
``events_append_only`` trigger is switched off for the one ``UPDATE`` that fills the column, in
this migration's transaction, and on again before it commits; nothing but the new column
changes (the ``body``, ``hash``, ``position`` and ``transaction_id`` of every event stay as
they were, and so every hash chain, log tree and receipt). The grants of 0008 are unchanged:
the service's role still writes ``events``, ``streams`` and ``idempotency_keys`` only through
``append_events``.

``append_events`` gets an overload with the match id as its first argument (the argument a
distributed function is delegated by); its statement filters every table it reads or writes by
it. The overloads of 0009 and 0021, which a server of an earlier release may still call during
the upgrade, do not know the column: a ``BEFORE INSERT`` trigger on each of the six tables
fills it from the stream id when a writer leaves it out, and only then (its ``WHEN``), so an
append of this release, which passes it, never runs the trigger. ``keep_match_deadline`` copies
the event's match id into ``match_deadlines``.

No index is added: every statement that names a match also names its stream, and the stream's
indexes find the rows (the match id is checked on them). Under Citus the primary and unique
keys would gain the match id in front; that is a change of keys, not of rows or statements.
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

TABLES = (
    "events",
    "streams",
    "snapshots",
    "idempotency_keys",
    "match_deadlines",
    "match_abandon_claims",
)
NIL = "00000000-0000-0000-0000-000000000000"
UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# The prefixes of ``service.store.match_stream_names.MatchStream``, then the match's UUID (its
# last 36 characters). Anchored, so that ``format-match-`` is never read as ``match-``.
PATTERN = f"^(format-match-|match-|fairness-){UUID}$"

MATCH_ID_OF_STREAM = f"""
CREATE FUNCTION match_id_of_stream(stream_id text) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$
        SELECT CASE WHEN stream_id ~ '{PATTERN}' THEN right(stream_id, 36)::uuid
                    ELSE '{NIL}'::uuid END
    $$;

CREATE FUNCTION fill_match_id() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    NEW.match_id := match_id_of_stream(NEW.stream_id);
    RETURN NEW;
END
$$;
"""


def _column(table: str) -> str:
    return f"""
ALTER TABLE {table} ADD COLUMN match_id uuid;
UPDATE {table} SET match_id = match_id_of_stream(stream_id);
ALTER TABLE {table} ALTER COLUMN match_id SET NOT NULL;
CREATE TRIGGER {table}_fill_match_id BEFORE INSERT ON {table}
    FOR EACH ROW WHEN (NEW.match_id IS NULL) EXECUTE FUNCTION fill_match_id();
"""


# The only UPDATE events ever sees, and only of the new column: the guard is off for it alone.
EVENTS_COLUMN = (
    "ALTER TABLE events DISABLE TRIGGER events_append_only;"
    + _column("events")
    + "ALTER TABLE events ENABLE TRIGGER events_append_only;"
)

KEEP_MATCH_DEADLINE = """
CREATE OR REPLACE FUNCTION keep_match_deadline() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NEW.type = 'deadline_set' AND NEW.body->>'due_at' IS NOT NULL THEN
        INSERT INTO match_deadlines (match_id, stream_id, seat, due_at, version, lease_until)
        VALUES (NEW.match_id, NEW.stream_id, (NEW.body->>'seat')::integer,
                (NEW.body->>'due_at')::timestamptz, NEW.version, NULL)
        ON CONFLICT (stream_id) DO UPDATE
            SET seat = EXCLUDED.seat, due_at = EXCLUDED.due_at, version = EXCLUDED.version,
                lease_until = NULL;
    ELSE
        DELETE FROM match_deadlines WHERE match_id = NEW.match_id AND stream_id = NEW.stream_id;
    END IF;
    RETURN NULL;
END
$$;
"""
KEEP_MATCH_DEADLINE_BEFORE = """
CREATE OR REPLACE FUNCTION keep_match_deadline() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NEW.type = 'deadline_set' AND NEW.body->>'due_at' IS NOT NULL THEN
        INSERT INTO match_deadlines (stream_id, seat, due_at, version, lease_until)
        VALUES (NEW.stream_id, (NEW.body->>'seat')::integer,
                (NEW.body->>'due_at')::timestamptz, NEW.version, NULL)
        ON CONFLICT (stream_id) DO UPDATE
            SET seat = EXCLUDED.seat, due_at = EXCLUDED.due_at, version = EXCLUDED.version,
                lease_until = NULL;
    ELSE
        DELETE FROM match_deadlines WHERE stream_id = NEW.stream_id;
    END IF;
    RETURN NULL;
END
$$;
"""

ARGUMENTS = "uuid, text, bigint, bytea, text[], integer[], bytea[], bytea[], text, bytea"
APPEND_EVENTS = f"append_events({ARGUMENTS})"

# How the head moves, as in 0021, with the match id written and filtered on.
CREATE_HEAD = """
        INSERT INTO streams AS s (match_id, stream_id, version, last_hash)
        SELECT p_match_id, p_stream_id, cardinality(p_types), p_hashes[cardinality(p_hashes)]
        WHERE NOT EXISTS (SELECT FROM key)
        ON CONFLICT (stream_id) DO UPDATE
            SET version = excluded.version, last_hash = excluded.last_hash
            WHERE s.version = 0
        RETURNING s.version"""
MOVE_HEAD = """
        UPDATE streams s
        SET version = p_expected_version + cardinality(p_types),
            last_hash = p_hashes[cardinality(p_hashes)]
        WHERE s.match_id = p_match_id AND s.stream_id = p_stream_id
          AND s.version = p_expected_version
          AND s.last_hash = p_previous_hash AND NOT EXISTS (SELECT FROM key)
        RETURNING s.version"""

# 0021's statement. The key is looked up within the match: a key of another match makes the
# key's insert fail on the primary key, and the adapter answers that as a key reused (keys are
# unique across matches, as before; the service's keys name their match anyway).
STATEMENT = """
    RETURN QUERY
    WITH key AS (
        SELECT k.stream_id = p_stream_id AND k.fingerprint = p_fingerprint AS same,
               k.first_version, k.last_version, k.positions, e.hash
        FROM idempotency_keys k
        LEFT JOIN events e ON e.match_id = k.match_id AND e.stream_id = k.stream_id
                          AND e.version = k.last_version
        WHERE k.match_id = p_match_id AND k.key = p_idempotency_key
    ), head AS (
        SELECT s.version, s.last_hash FROM streams s
        WHERE s.match_id = p_match_id AND s.stream_id = p_stream_id
    ), moved AS (@MOVE@
    ), written AS (
        INSERT INTO events (match_id, stream_id, version, type, schema_version, data, hash)
        SELECT p_match_id, p_stream_id, p_expected_version + e.n, e.type, e.schema_version,
               e.data, e.hash
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
            (match_id, key, stream_id, fingerprint, first_version, last_version, positions)
        SELECT p_match_id, p_idempotency_key, p_stream_id, p_fingerprint,
               p_expected_version + 1, a.version, a.ps
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
-- 0021's append, by match: p_match_id is the match p_stream_id belongs to (the nil UUID for a
-- stream of no match), written into every row and named in every filter.
CREATE FUNCTION append_events(
    p_match_id uuid,
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
    IF p_match_id IS DISTINCT FROM match_id_of_stream(p_stream_id) THEN
        RAISE EXCEPTION 'stream % is not of match %', p_stream_id, p_match_id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_expected_version = 0 THEN{STATEMENT.replace("@MOVE@", CREATE_HEAD)}
    ELSE{STATEMENT.replace("@MOVE@", MOVE_HEAD)}
    END IF;
END
$$;
"""

# As 0021's: owned by whoever owns ``events``, run as its definer, executable by gin_app only.
PRIVILEGES = f"""
DO $$
BEGIN
    EXECUTE format('ALTER FUNCTION {APPEND_EVENTS} OWNER TO %I',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class
                    WHERE oid = 'public.events'::regclass));
    EXECUTE format('ALTER FUNCTION fill_match_id() OWNER TO %I',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class
                    WHERE oid = 'public.events'::regclass));
    EXECUTE format('ALTER FUNCTION match_id_of_stream(text) OWNER TO %I',
                   (SELECT pg_get_userbyid(relowner) FROM pg_class
                    WHERE oid = 'public.events'::regclass));
END
$$;
REVOKE ALL ON FUNCTION {APPEND_EVENTS} FROM PUBLIC;
REVOKE ALL ON FUNCTION fill_match_id() FROM PUBLIC;
ALTER FUNCTION {APPEND_EVENTS} SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
GRANT EXECUTE ON FUNCTION {APPEND_EVENTS} TO gin_app;
"""


def upgrade() -> None:
    op.execute(MATCH_ID_OF_STREAM)
    op.execute(EVENTS_COLUMN)
    for table in TABLES[1:]:
        op.execute(_column(table))
    op.execute(KEEP_MATCH_DEADLINE)
    op.execute(APPEND)
    op.execute(PRIVILEGES)


def downgrade() -> None:
    op.execute(f"DROP FUNCTION {APPEND_EVENTS}")
    op.execute(KEEP_MATCH_DEADLINE_BEFORE)
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_fill_match_id ON {table}")
        # Dropping a column rewrites no row's other columns: the events stay as stored.
        op.execute(f"ALTER TABLE {table} DROP COLUMN match_id")
    op.execute("DROP FUNCTION fill_match_id()")
    op.execute("DROP FUNCTION match_id_of_stream(text)")
