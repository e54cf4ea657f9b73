"""Matches: what the service keeps beside each match's event stream.

Revision ID: 0002
Revises: 0001
Create Date: 2025-11-29

``matches`` holds the per-match server secret that seeds every shuffle (never sent to anyone);
``match_seats`` each seat's token as a SHA-256 hash (NULL until an invited player joins) and
the entropy the seat contributed; ``match_invites`` open invites, by the hash of their code;
``command_receipts`` the version an idempotent command was decided at, so a retry is decided
again at that version and returns the same answer.

Every committed append to a match stream notifies channel ``gin_match_events`` with the stream
id, from a trigger, so the notification is part of the append's transaction: delivered only
if it commits, and once per transaction (PostgreSQL folds identical notifications).
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE matches (
    match_id uuid PRIMARY KEY,
    external_ref text CHECK (length(external_ref) <= 200),
    server_secret bytea NOT NULL CHECK (length(server_secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX matches_external_ref ON matches (external_ref) WHERE external_ref IS NOT NULL;

CREATE TABLE match_seats (
    match_id uuid NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat smallint NOT NULL CHECK (seat IN (0, 1)),
    token_hash bytea UNIQUE CHECK (length(token_hash) = 32),
    entropy text NOT NULL DEFAULT '',
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE match_invites (
    code_hash bytea PRIMARY KEY CHECK (length(code_hash) = 32),
    match_id uuid NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat smallint NOT NULL CHECK (seat IN (0, 1)),
    created_at timestamptz NOT NULL DEFAULT now(),
    accepted_at timestamptz
);

CREATE TABLE command_receipts (
    match_id uuid NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat smallint NOT NULL CHECK (seat IN (0, 1)),
    idempotency_key text NOT NULL,
    request_hash bytea NOT NULL,
    at_version bigint NOT NULL CHECK (at_version >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat, idempotency_key)
);

CREATE FUNCTION notify_match_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gin_match_events', NEW.stream_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_match
    AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.stream_id LIKE 'match-%')
    EXECUTE FUNCTION notify_match_event();
"""

DOWNGRADE = """
DROP TRIGGER events_notify_match ON events;
DROP FUNCTION notify_match_event();
DROP TABLE command_receipts;
DROP TABLE match_invites;
DROP TABLE match_seats;
DROP TABLE matches;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
