"""Tournament integration: operators and their keys, external ids, webhooks and deliveries.

Revision ID: 0003
Revises: 0002
Create Date: 2025-11-30

``operators`` are the tournament systems that use the service; each holds ``operator_keys``,
stored as SHA-256 hashes like seat tokens, each with its scopes. A match created with an
operator key records its ``operator_id``; each seat may carry the ``external_player_id`` the
tournament software knows the player by (the match's own external id is ``external_ref``).

Webhooks. ``webhooks.secret`` is stored as written: the service needs it to sign every
delivery, so it cannot keep only a hash. ``webhook_cursor`` is the dispatcher's position in the
global event log; it turns the hand, game and match ends it passes into
``webhook_deliveries``, at most one per webhook and event (``UNIQUE (webhook_id,
event_position)``), in the same transaction that moves the cursor. A worker claims due
deliveries with ``FOR UPDATE SKIP LOCKED`` and holds a lease (``lease_until``, ``lease_token``)
while it sends; ``webhook_attempts`` logs every attempt, opened when it is claimed, so an
attempt cut short by a crash still shows.

Two partial indexes on ``events`` find each stream's latest deal and latest hand end in a few
index pages: the global feed needs them to know which hands are over.
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE operators (
    operator_id uuid PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE operator_keys (
    key_id uuid PRIMARY KEY,
    operator_id uuid NOT NULL REFERENCES operators ON DELETE CASCADE,
    key_hash bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    scopes text[] NOT NULL CHECK (
        cardinality(scopes) >= 1
        AND scopes <@ ARRAY['matches:create', 'feed:read', 'webhooks:manage']
    ),
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);

ALTER TABLE matches ADD COLUMN operator_id uuid REFERENCES operators;
CREATE INDEX matches_operator ON matches (operator_id) WHERE operator_id IS NOT NULL;

ALTER TABLE match_seats
    ADD COLUMN external_player_id text CHECK (length(external_player_id) <= 200);

CREATE INDEX events_deals ON events (stream_id, version) WHERE type = 'dealt';
CREATE INDEX events_hand_ends ON events (stream_id, version)
    WHERE type IN ('scored', 'hand_drawn');

CREATE TABLE webhooks (
    webhook_id uuid PRIMARY KEY,
    operator_id uuid NOT NULL REFERENCES operators ON DELETE CASCADE,
    url text NOT NULL CHECK (length(url) <= 2000),
    secret text NOT NULL CHECK (length(secret) BETWEEN 16 AND 200),
    events text[] NOT NULL CHECK (
        cardinality(events) >= 1 AND events <@ ARRAY['hand_end', 'game_end', 'match_end']
    ),
    created_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
);

CREATE INDEX webhooks_live ON webhooks (operator_id) WHERE deleted_at IS NULL;

CREATE TABLE webhook_cursor (
    name text PRIMARY KEY,
    position bigint NOT NULL CHECK (position >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO webhook_cursor (name, position) VALUES ('dispatcher', 0);

CREATE TABLE webhook_deliveries (
    delivery_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    webhook_id uuid NOT NULL REFERENCES webhooks ON DELETE CASCADE,
    match_id uuid NOT NULL,
    event_position bigint NOT NULL,
    event_version bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('hand_end', 'game_end', 'match_end')),
    payload bytea NOT NULL,
    status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    lease_until timestamptz,
    lease_token uuid,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    CONSTRAINT webhook_deliveries_once UNIQUE (webhook_id, event_position)
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';

CREATE TABLE webhook_attempts (
    delivery_id bigint NOT NULL REFERENCES webhook_deliveries ON DELETE CASCADE,
    attempt integer NOT NULL CHECK (attempt >= 1),
    worker text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    status_code integer,
    error text,
    PRIMARY KEY (delivery_id, attempt)
);
"""

DOWNGRADE = """
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_cursor;
DROP TABLE webhooks;
DROP INDEX events_hand_ends;
DROP INDEX events_deals;
ALTER TABLE match_seats DROP COLUMN external_player_id;
ALTER TABLE matches DROP COLUMN operator_id;
DROP TABLE operator_keys;
DROP TABLE operators;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
