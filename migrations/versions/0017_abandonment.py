"""Abandonment: claims on idle matches, so that one server at a time ends each.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-30

A match nobody has moved in for the configured time ends as abandoned. Which matches are idle
is read from what is already stored (the last event's ``recorded_at``, found through the
stream head's version), so no command writes anything more. ``match_abandon_claims`` holds
only the leases of matches a server has found idle and is ending: a claim is taken with the
lease of a row whose lease has run out, and the abandonment itself is appended at the version
the match was found idle at, so it applies at most once whatever claims it.
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE match_abandon_claims (
    stream_id text PRIMARY KEY,
    lease_until timestamptz NOT NULL
);

ALTER TABLE match_abandon_claims OWNER TO gin_owner;
GRANT SELECT, INSERT, UPDATE (lease_until) ON match_abandon_claims TO gin_app;
"""

DOWNGRADE = """
DROP TABLE match_abandon_claims;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
