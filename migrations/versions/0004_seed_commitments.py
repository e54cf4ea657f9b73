"""Seed commitments made before a match exists.

Revision ID: 0004
Revises: 0003
Create Date: 2025-11-30

A client that wants its entropy in a match's shuffles asks for a commitment first
(``POST /commitments``): the server draws the match's secret and publishes the commitment of
its first chain of seeds before it has seen any entropy. ``seed_commitments`` keeps the secret
until a match is created with that commitment, which takes the row (it is deleted, so a
commitment serves one match); rows nobody used are removed after a day.
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE seed_commitments (
    commitment bytea PRIMARY KEY CHECK (length(commitment) = 32),
    server_secret bytea NOT NULL CHECK (length(server_secret) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX seed_commitments_age ON seed_commitments (created_at);
"""

DOWNGRADE = """
DROP TABLE seed_commitments;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
