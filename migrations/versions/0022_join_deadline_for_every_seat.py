"""A deadline may name no seat: ``match_deadlines.seat`` nullable.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02

A three- or four-player match with ``join_seconds`` has one join deadline for every invited
seat, a ``deadline_set`` with no ``seat`` (docs/rules.md, "Join deadlines, no-shows,
abandonment and adjudication"). The trigger that keeps ``match_deadlines`` copies the event's
seat, which the column refused when null. Nothing reads the column to find what is due (the
timer loads the match and asks its rules), so a null seat changes nothing else.
"""

from __future__ import annotations

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE match_deadlines ALTER COLUMN seat DROP NOT NULL")


def downgrade() -> None:
    # A deadline naming no seat cannot go back; its match is swept as abandoned if nobody comes.
    op.execute("DELETE FROM match_deadlines WHERE seat IS NULL")
    op.execute("ALTER TABLE match_deadlines ALTER COLUMN seat SET NOT NULL")
