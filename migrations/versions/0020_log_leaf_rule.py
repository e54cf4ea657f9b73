"""Where the log tree's second leaf rule starts: ``log_leaf_rule``.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01

The global log's Merkle tree (``service/audit/log_tree.py``) blinds a match's events with a
value derived from its secret. Releases before this one blinded only the streams named
``match-`` and ``fairness-``, so the events of three- and four-player matches
(``format-match-``) went into the tree as they are. From now on every stream of a match is
blinded; heads already signed must stay what they were, so the events already in the log keep
the first rule. This records how many there are: the log as readers see it (the events of
transactions older than every running one, in log order), so a transaction still running now
lands after them. A database created by this release records 0. One row, never changed;
whoever changes it changes which leaves are blinded, and so every head after the first event
it moves.
"""

from __future__ import annotations

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE log_leaf_rule (
    one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row),
    every_match_blinded_from bigint NOT NULL CHECK (every_match_blinded_from >= 0)
);

INSERT INTO log_leaf_rule (every_match_blinded_from)
SELECT count(*) FROM events WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot());

ALTER TABLE log_leaf_rule OWNER TO gin_owner;
GRANT SELECT ON log_leaf_rule TO gin_app;
"""

DOWNGRADE = """
DROP TABLE log_leaf_rule;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
