"""Stream tickets: short-lived, single-use passes to one seat's live stream.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30

A browser's ``EventSource`` cannot send a seat's token in a header, and the token must not go
in a URL. ``POST /matches/{id}/stream-tickets`` trades the token for a ticket kept here by its
SHA-256 hash with the seat it opens; ``GET /matches/{id}/stream?ticket=`` deletes the row as it
redeems it, so a ticket opens one stream once. Rows expire after seconds; each new ticket
removes the expired ones. As 0008 asks, the table belongs to ``gin_owner`` and the service's
role may only insert, read and delete rows.
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE stream_tickets (
    ticket_hash bytea PRIMARY KEY CHECK (length(ticket_hash) = 32),
    match_id uuid NOT NULL REFERENCES matches (match_id),
    seat smallint NOT NULL CHECK (seat >= 0),
    expires_at timestamptz NOT NULL
);

CREATE INDEX stream_tickets_expiry ON stream_tickets (expires_at);

ALTER TABLE stream_tickets OWNER TO gin_owner;
GRANT SELECT, INSERT, DELETE ON stream_tickets TO gin_app;
"""

DOWNGRADE = """
DROP TABLE stream_tickets;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
