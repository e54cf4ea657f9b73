"""The lookups of a tournament desk: an operator's rounds in creation order, and the matches
of one external player.

Revision ID: 0025
Revises: 0022
Create Date: 2026-12-02

``GET /rounds`` pages an operator's rounds by (created_at, round_id), and
``GET /operator/matches?external_player_id=`` finds a player's seats; without these each read
scans its whole table. Both tables are small beside the event log, and written once per match
or round, never per command.
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("CREATE INDEX rounds_by_operator ON rounds (operator_id, created_at, round_id)")
    op.execute(
        "CREATE INDEX match_seats_external_player ON match_seats (external_player_id) "
        "WHERE external_player_id IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX match_seats_external_player")
    op.execute("DROP INDEX rounds_by_operator")
