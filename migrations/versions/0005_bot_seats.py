"""Bot seats: a seat the server plays, at a strength level chosen when the match is created.

Revision ID: 0005
Revises: 0004
Create Date: 2025-11-30

``match_seats.bot`` is the level of a bot seat (NULL for a person). A bot seat never has a
token: nobody may send commands for it. The level lives with the match, not in a process, so
any server process, before or after a restart, plays the seat the same way.

``match_seats_bots`` lists the matches with a bot seat, and ``events_match_won`` finds the end
of a match in one index page: together they let a starting process find every match that may
be waiting on a bot without reading any finished match's events.
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UPGRADE = """
ALTER TABLE match_seats
    ADD COLUMN bot text CHECK (bot IN ('random', 'simple', 'strong')),
    ADD CONSTRAINT match_seats_bot_has_no_token CHECK (bot IS NULL OR token_hash IS NULL);

CREATE INDEX match_seats_bots ON match_seats (match_id) WHERE bot IS NOT NULL;
CREATE INDEX events_match_won ON events (stream_id) WHERE type = 'match_won';
"""

DOWNGRADE = """
DROP INDEX events_match_won;
DROP INDEX match_seats_bots;
ALTER TABLE match_seats DROP CONSTRAINT match_seats_bot_has_no_token, DROP COLUMN bot;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
