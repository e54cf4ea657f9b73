"""Quick matches of three and four seats: the waiting players after the first.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-02

A pairing of three or four players keeps its first waiting player in ``waiting_player``, as a
pairing of two always has, and the others, in seat order, in ``more_waiting`` (empty for two).
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

UPGRADE = """
ALTER TABLE quick_match_pairs ADD COLUMN more_waiting uuid[] NOT NULL DEFAULT '{}';
"""

DOWNGRADE = """
ALTER TABLE quick_match_pairs DROP COLUMN more_waiting;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
