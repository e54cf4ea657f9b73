"""Seats 0 to 3: matches of three and four players.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-30

Seat numbers were checked to be 0 or 1 wherever a seat is stored. A three-player match has
seats 0 to 2 and a four-player match 0 to 3, so the checks allow 0 to 3; which seats a given
match has is the service's business (its ``match_seats`` rows). A match may now hold several
open invites, one per invited seat, which ``match_invites`` (keyed by code) already allows.
No table is added, so no grant changes.
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_TABLES = ("match_seats", "match_invites")


def _check(table: str, seats: str) -> str:
    return (
        f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {table}_seat_check;"
        f"ALTER TABLE {table} ADD CONSTRAINT {table}_seat_check CHECK ({seats});"
    )


def upgrade() -> None:
    for table in _TABLES:
        op.execute(_check(table, "seat BETWEEN 0 AND 3"))


def downgrade() -> None:
    # Fails, as it should, while a match of more than two players is stored.
    for table in _TABLES:
        op.execute(_check(table, "seat IN (0, 1)"))
