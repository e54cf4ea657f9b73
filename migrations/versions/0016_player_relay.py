"""The push relay hook and the deadline in a player's list of matches.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-30

- ``player_matches.deadline``: when the player to move must have moved, for a match with a
  turn clock (NULL otherwise), as the projector last saw it.
- Webhooks may hear of a player's turn (``player_your_turn``) and of the end of a player's
  match (``player_match_ended``), one delivery per player: ``webhook_deliveries.player_id``
  names the player, and the once-only constraint now covers it. ``NULLS NOT DISTINCT`` keeps
  one delivery per webhook and event position for the news of a match (no player), as before
  (that takes PostgreSQL 15 or later).
- The scope ``players:relay``: an operator key needs it to subscribe to the players' kinds,
  which tell of every player (a relay wakes phones; it is not one operator's matches).
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

UPGRADE = """
ALTER TABLE player_matches ADD COLUMN deadline timestamptz;
GRANT UPDATE (deadline) ON player_matches TO gin_app;

ALTER TABLE webhook_deliveries ADD COLUMN player_id uuid REFERENCES players;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_once;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_once
    UNIQUE NULLS NOT DISTINCT (webhook_id, event_position, player_id);

ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY[
        'match_created', 'match_started', 'hand_end', 'game_end', 'match_end',
        'player_your_turn', 'player_match_ended']
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ('match_created', 'match_started', 'hand_end', 'game_end', 'match_end',
             'player_your_turn', 'player_match_ended')
);

ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'matches:read', 'feed:read', 'feed:all',
                        'webhooks:manage', 'matches:adjudicate', 'players:relay']
);
"""

DOWNGRADE = """
UPDATE operator_keys SET scopes = array_remove(scopes, 'players:relay');
DELETE FROM operator_keys WHERE cardinality(scopes) = 0;
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'matches:read', 'feed:read', 'feed:all',
                        'webhooks:manage', 'matches:adjudicate']
);

DELETE FROM webhook_deliveries WHERE player_id IS NOT NULL;
UPDATE webhooks SET events = array_remove(
    array_remove(events, 'player_your_turn'), 'player_match_ended');
DELETE FROM webhooks WHERE cardinality(events) = 0;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_events_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_events_check CHECK (
    cardinality(events) >= 1 AND events <@ ARRAY[
        'match_created', 'match_started', 'hand_end', 'game_end', 'match_end']
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_kind_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_kind_check CHECK (
    kind IN ('match_created', 'match_started', 'hand_end', 'game_end', 'match_end')
);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_once;
ALTER TABLE webhook_deliveries DROP COLUMN player_id;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_once
    UNIQUE (webhook_id, event_position);

ALTER TABLE player_matches DROP COLUMN deadline;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
