"""The event store: streams, events, idempotency keys, snapshots.

Revision ID: 0001
Revises:
Create Date: 2025-11-29

Global order without gaps. Every event row records the transaction that wrote it
(``transaction_id xid8``) besides its ``position`` (an identity column). The log order is
``(transaction_id, position)``, and readers return only rows whose transaction is older than
every transaction still running (``transaction_id < pg_snapshot_xmin(pg_current_snapshot())``).
A transaction that is still open therefore holds back every later one in the log instead of
being skipped: a plain ``position > cursor`` reader would skip an event whose transaction drew
a low position but committed after a higher one was read. Writers never wait on each other
unless they write to the same stream, so commits still group (a single counter row would make
every append in the database wait for the previous commit). The price: one long transaction
anywhere in the cluster delays subscribers (never the writers) until it ends.

Concurrency. ``streams`` holds one row per stream (version, hash of the last event). An
append locks that row, checks the expected version, chains the new events' hashes to the
stored one and moves the head, all in one call to ``append_events`` and one transaction.

Tamper evidence. ``hash`` is computed here on append (the same formula as
``service.store.hash_chain.link_hash``, which recomputes it on verification). ``events`` refuses
UPDATE, DELETE and TRUNCATE through a trigger; only the table's owner or a superuser can
switch the trigger off, and the hash chain shows what they changed.

``data`` holds the canonical bytes that are hashed; ``body`` is the same JSON as ``jsonb`` for
queries, derived from ``data`` so the two can never disagree.
"""

from __future__ import annotations

from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TABLES = """
CREATE TABLE streams (
    stream_id text PRIMARY KEY,
    version bigint NOT NULL CHECK (version >= 0),
    last_hash bytea NOT NULL
);

-- convert_from is only STABLE in general; with the source encoding fixed to UTF8 and the
-- database encoding fixed at creation, this use of it always gives the same answer.
CREATE FUNCTION event_body(data bytea) RETURNS jsonb
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT convert_from(data, 'UTF8')::jsonb $$;

CREATE TABLE events (
    position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_id text NOT NULL,
    version bigint NOT NULL CHECK (version >= 1),
    type text NOT NULL CHECK (type <> ''),
    schema_version integer NOT NULL CHECK (schema_version >= 1),
    data bytea NOT NULL,
    body jsonb GENERATED ALWAYS AS (event_body(data)) STORED,
    hash bytea NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, version)
);

CREATE INDEX events_log_order ON events (transaction_id, position);

CREATE TABLE idempotency_keys (
    key text PRIMARY KEY,
    stream_id text NOT NULL,
    fingerprint bytea NOT NULL,
    first_version bigint NOT NULL,
    last_version bigint NOT NULL,
    positions bigint[] NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE snapshots (
    stream_id text PRIMARY KEY,
    version bigint NOT NULL CHECK (version >= 1),
    state_type text NOT NULL,
    data bytea NOT NULL,
    saved_at timestamptz NOT NULL DEFAULT now()
);
"""

APPEND_ONLY = """
CREATE FUNCTION refuse_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION refuse_event_change();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_event_change();
"""

APPEND = """
-- One call, one transaction, one round trip: lock the stream head, check the expected
-- version, chain and insert the events, move the head, remember the idempotency key.
-- outcome: 'appended', 'replayed' (the key's first result), 'conflict' (current_version is
-- the stream's version) or 'key_reused'. A key committed meanwhile by an append to another
-- stream makes the key INSERT fail with a unique violation; the caller retries once.
CREATE FUNCTION append_events(
    p_stream_id text,
    p_expected_version bigint,
    p_types text[],
    p_schema_versions integer[],
    p_data bytea[],
    p_idempotency_key text,
    p_fingerprint bytea,
    OUT outcome text,
    OUT current_version bigint,
    OUT first_version bigint,
    OUT last_version bigint,
    OUT positions bigint[]
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_stream bytea := convert_to(p_stream_id, 'UTF8');
    v_type bytea;
    v_version bigint;
    v_hash bytea;
    v_position bigint;
BEGIN
    IF p_idempotency_key IS NOT NULL THEN
        SELECT CASE WHEN k.fingerprint = p_fingerprint THEN 'replayed' ELSE 'key_reused' END,
               k.last_version, k.first_version, k.last_version, k.positions
        INTO outcome, current_version, first_version, last_version, positions
        FROM idempotency_keys k WHERE k.key = p_idempotency_key;
        IF FOUND THEN RETURN; END IF;
    END IF;

    IF p_expected_version = 0 THEN
        INSERT INTO streams (stream_id, version, last_hash)
        VALUES (p_stream_id, 0, decode(repeat('00', 32), 'hex'))
        ON CONFLICT (stream_id) DO NOTHING;
    END IF;
    SELECT s.version, s.last_hash INTO v_version, v_hash
    FROM streams s WHERE s.stream_id = p_stream_id
    FOR UPDATE;
    IF NOT FOUND THEN
        outcome := 'conflict';
        current_version := 0;
        RETURN;
    END IF;

    -- The same request may have committed while this one waited for the lock.
    IF p_idempotency_key IS NOT NULL THEN
        SELECT CASE WHEN k.fingerprint = p_fingerprint THEN 'replayed' ELSE 'key_reused' END,
               k.last_version, k.first_version, k.last_version, k.positions
        INTO outcome, current_version, first_version, last_version, positions
        FROM idempotency_keys k WHERE k.key = p_idempotency_key;
        IF FOUND THEN RETURN; END IF;
    END IF;

    IF v_version <> p_expected_version THEN
        outcome := 'conflict';
        current_version := v_version;
        RETURN;
    END IF;

    positions := '{}';
    FOR i IN 1 .. cardinality(p_types) LOOP
        v_version := v_version + 1;
        v_type := convert_to(p_types[i], 'UTF8');
        v_hash := sha256(
            v_hash
            || int4send(length(v_stream)) || v_stream
            || int8send(v_version)
            || int4send(length(v_type)) || v_type
            || int4send(p_schema_versions[i])
            || int4send(length(p_data[i])) || p_data[i]
        );
        INSERT INTO events (stream_id, version, type, schema_version, data, hash)
        VALUES (p_stream_id, v_version, p_types[i], p_schema_versions[i], p_data[i], v_hash)
        RETURNING events.position INTO v_position;
        positions := positions || v_position;
    END LOOP;

    UPDATE streams SET version = v_version, last_hash = v_hash
    WHERE stream_id = p_stream_id;

    IF p_idempotency_key IS NOT NULL THEN
        INSERT INTO idempotency_keys
            (key, stream_id, fingerprint, first_version, last_version, positions)
        VALUES (
            p_idempotency_key, p_stream_id, p_fingerprint,
            p_expected_version + 1, v_version, positions
        );
    END IF;

    outcome := 'appended';
    current_version := v_version;
    first_version := p_expected_version + 1;
    last_version := v_version;
END
$$;
"""

DROP = """
DROP FUNCTION append_events(text, bigint, text[], integer[], bytea[], text, bytea);
DROP TABLE snapshots;
DROP TABLE idempotency_keys;
DROP TABLE events;
DROP FUNCTION refuse_event_change();
DROP FUNCTION event_body(bytea);
DROP TABLE streams;
"""


def upgrade() -> None:
    op.execute(TABLES)
    op.execute(APPEND_ONLY)
    op.execute(APPEND)


def downgrade() -> None:
    op.execute(DROP)
