"""One idempotency mechanism: the event store's key, with a fingerprint the caller names.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30

An idempotent command used to be remembered twice: ``command_receipts`` held the version it was
first decided at (so a retry was decided again there), and ``idempotency_keys`` the append it
made. Now the service passes the fingerprint of the request itself (command, If-Match, seat)
as ``p_fingerprint``, so the key alone recognises a retry: the service looks the key up
before deciding and answers with the state right after the first append. ``command_receipts``
goes.

``append_events`` replays a key's first result only for the same fingerprint *and* stream:
a fingerprint the caller names need not cover the stream, and a key must never answer for
an append to another stream.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# 0001's append_events, but for the condition under which a key's first result is replayed.
APPEND = """
CREATE OR REPLACE FUNCTION append_events(
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
        SELECT CASE WHEN @REPLAYED@ THEN 'replayed' ELSE 'key_reused' END,
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
        SELECT CASE WHEN @REPLAYED@ THEN 'replayed' ELSE 'key_reused' END,
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

REPLAYED = "k.fingerprint = p_fingerprint AND k.stream_id = p_stream_id"
REPLAYED_BEFORE = "k.fingerprint = p_fingerprint"

RECEIPTS = """
CREATE TABLE command_receipts (
    match_id uuid NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat smallint NOT NULL CHECK (seat IN (0, 1)),
    idempotency_key text NOT NULL,
    request_hash bytea NOT NULL,
    at_version bigint NOT NULL CHECK (at_version >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat, idempotency_key)
);
"""


def upgrade() -> None:
    op.execute(APPEND.replace("@REPLAYED@", REPLAYED))
    op.execute("DROP TABLE command_receipts")


def downgrade() -> None:
    # Keys written since hold request fingerprints, which the code of 0005 does not compute:
    # it refuses a retry of such a command as a reused key rather than replaying it.
    op.execute(RECEIPTS)
    op.execute(APPEND.replace("@REPLAYED@", REPLAYED_BEFORE))
