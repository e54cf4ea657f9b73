"""Quick-match pairs whose match is not made yet: ``quick_match_pairs``.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-30

A pairing writes its pair here in the transaction that pairs, claimed by the asker until
``claimed_until``; ``made_at`` is set once the match exists. A process that dies in between
leaves the pair pending, and once its claim lapses another claims it and makes the match under
the promised id. Pairings made before this revision whose match never came to exist are
copied in as pending with their claim lapsed, so they are made too.
"""

from __future__ import annotations

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE quick_match_pairs (
    match_id uuid PRIMARY KEY,
    options_key text NOT NULL,
    waiting_player uuid NOT NULL REFERENCES players,
    asking_player uuid NOT NULL REFERENCES players,
    paired_at timestamptz NOT NULL,
    claimed_until timestamptz NOT NULL,
    made_at timestamptz
);
CREATE INDEX quick_match_pairs_pending ON quick_match_pairs (claimed_until)
    WHERE made_at IS NULL;

INSERT INTO quick_match_pairs
    (match_id, options_key, waiting_player, asking_player, paired_at, claimed_until)
SELECT asker.match_id, asker.options_key, waiting.player_id, asker.player_id,
    asker.requested_at, asker.requested_at
FROM quick_match asker
JOIN quick_match waiting ON waiting.match_id = asker.match_id AND waiting.seat = 0
WHERE asker.seat = 1 AND NOT EXISTS (SELECT FROM matches m WHERE m.match_id = asker.match_id);

ALTER TABLE quick_match_pairs OWNER TO gin_owner;
GRANT SELECT, INSERT, UPDATE (claimed_until, made_at) ON quick_match_pairs TO gin_app;
"""

DOWNGRADE = """
DROP TABLE quick_match_pairs;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
