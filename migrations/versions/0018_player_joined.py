"""A webhook kind for an invited seat taken: ``player_joined``.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-30

Only the two CHECK constraints change; the tables keep their owner (``gin_owner``) and the
grants 0008 and 0011 made, so nothing is granted here. The downgrade drops the kind from the
deliveries and subscriptions that name it (a subscription left with no kind goes) before the
old constraints come back.
"""

from __future__ import annotations

from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

# Every kind 0016 allows: an operator's matches' news and a player's news for push relays.
KINDS = (
    "'match_created', 'match_started', 'hand_end', 'game_end', 'match_end', "
    "'player_your_turn', 'player_match_ended'"
)

UPGRADE = f"""
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY[{KINDS}, 'player_joined']
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ({KINDS}, 'player_joined')
);
"""

DOWNGRADE = f"""
DELETE FROM webhook_deliveries WHERE kind = 'player_joined';
UPDATE webhooks SET events = array_remove(events, 'player_joined');
DELETE FROM webhooks WHERE cardinality(events) = 0;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY[{KINDS}]
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ({KINDS})
);
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
