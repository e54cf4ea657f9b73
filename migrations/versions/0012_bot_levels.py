"""Bot levels as players see them: ``easy``, ``medium`` and ``hard`` beside the earlier names.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-30

``easy`` and ``medium`` are the ``simple`` and ``strong`` levels by the names players see;
``hard`` is a new level. The earlier names stay valid: matches stored with them keep playing.
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

UPGRADE = """
ALTER TABLE match_seats
    DROP CONSTRAINT match_seats_bot_check,
    ADD CONSTRAINT match_seats_bot_check
        CHECK (bot IN ('easy', 'medium', 'hard', 'random', 'simple', 'strong'));
"""

# A match with a seat at a level the earlier schema does not know keeps it under the level's
# earlier name; a hard seat has none, and plays on as the strongest level that schema knew.
DOWNGRADE = """
UPDATE match_seats SET bot = 'simple' WHERE bot = 'easy';
UPDATE match_seats SET bot = 'strong' WHERE bot IN ('medium', 'hard');
ALTER TABLE match_seats
    DROP CONSTRAINT match_seats_bot_check,
    ADD CONSTRAINT match_seats_bot_check CHECK (bot IN ('random', 'simple', 'strong'));
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
