"""Tournament rounds: safe retries of creation, external refs unique per operator, rounds.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30

``matches.external_ref`` becomes unique per operator (a tournament system finds its matches by
it), and ``matches_by_operator`` pages an operator's matches in creation order.

``rounds`` are batches of matches created in one request: their operator, and the time the
clocks of their matches are to start (``start_at``, NULL if not given). ``matches.round_id``
names the round a match was created in, ``round_position`` its place in the request.

``match_creations`` remembers each ``Idempotency-Key`` sent with a creation (a match or a
round): the SHA-256 of the operator and key (never the key), the request's fingerprint, and the
answer sealed with AES-GCM under a key derived from the Idempotency-Key itself, so the database
alone cannot read the seat tokens inside. ``sealed`` is wiped once ``expires_at`` passes (the
idempotency window); the row stays, so a late retry is refused rather than creating again.
While a creation runs, its row is claimed until ``claimed_until``: a retry arriving meanwhile
is told to wait, and a claim left by a crashed process can be taken over when it lapses.

Webhooks may also hear of a match created and a match started.

Two new scopes: ``matches:read`` (look up and list the operator's matches and rounds) and
``feed:all`` (the feed of every match, not only the operator's own).
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

UPGRADE = """
DROP INDEX matches_external_ref;
CREATE UNIQUE INDEX matches_operator_external_ref ON matches (operator_id, external_ref)
    WHERE external_ref IS NOT NULL;
CREATE INDEX matches_by_operator ON matches (operator_id, created_at, match_id)
    WHERE operator_id IS NOT NULL;

CREATE TABLE rounds (
    round_id uuid PRIMARY KEY,
    operator_id uuid NOT NULL REFERENCES operators,
    start_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE matches ADD COLUMN round_id uuid REFERENCES rounds,
    ADD COLUMN round_position integer CHECK ((round_id IS NULL) = (round_position IS NULL));
CREATE INDEX matches_round ON matches (round_id) WHERE round_id IS NOT NULL;

CREATE TABLE match_creations (
    key_hash bytea PRIMARY KEY CHECK (length(key_hash) = 32),
    fingerprint bytea NOT NULL CHECK (length(fingerprint) = 32),
    salt bytea NOT NULL CHECK (length(salt) = 16),
    sealed bytea,
    claimed_until timestamptz,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX match_creations_to_wipe ON match_creations (expires_at) WHERE sealed IS NOT NULL;

ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'matches:read', 'feed:read', 'feed:all',
                        'webhooks:manage']
);

ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY[
        'match_created', 'match_started', 'hand_end', 'game_end', 'match_end']
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ('match_created', 'match_started', 'hand_end', 'game_end', 'match_end')
);

ALTER TABLE rounds OWNER TO gin_owner;
ALTER TABLE match_creations OWNER TO gin_owner;
GRANT SELECT, INSERT ON rounds TO gin_app;
GRANT SELECT, INSERT, DELETE, UPDATE (fingerprint, salt, sealed, claimed_until, expires_at)
    ON match_creations TO gin_app;
"""

DOWNGRADE = """
DELETE FROM webhook_deliveries WHERE kind IN ('match_created', 'match_started');
UPDATE webhooks SET events = array_remove(array_remove(events, 'match_created'), 'match_started');
DELETE FROM webhooks WHERE cardinality(events) = 0;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY['hand_end', 'game_end', 'match_end']
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ('hand_end', 'game_end', 'match_end')
);
DROP TABLE match_creations;
DROP INDEX matches_round;
ALTER TABLE matches DROP COLUMN round_id, DROP COLUMN round_position;
DROP TABLE rounds;
DROP INDEX matches_by_operator;
DROP INDEX matches_operator_external_ref;
CREATE INDEX matches_external_ref ON matches (external_ref) WHERE external_ref IS NOT NULL;
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'feed:read', 'webhooks:manage']
);
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
