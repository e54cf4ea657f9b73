"""Players: anonymous device accounts, their seats, their matches as a list, their inbox.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-30

- ``players``: a display name and the SHA-256 of the player's credential (never the
  credential). ``inbox_seq`` numbers the player's notices: each notice takes the next number
  under the player's row lock, so the inbox has no gaps and commits in its own order.
- ``player_tokens``: the seat tokens a player's seats were given, by hash. A seat belongs to a
  player when its ``match_seats.token_hash`` is here; the link is written before the match is
  created or joined, so no seat is ever a player's without it.
- ``player_matches``: each player's matches as the projector last saw them (status, whose turn,
  version), ordered by the global position of the match's latest event.
- ``player_notices``: the inbox, one row per notice; ``player_projection`` the projector's
  cursor in the global log.
- ``quick_match``: each player's latest ask for a quick match, paired or waiting.
- ``player_invites``: invites a player made (to anyone with the code, or to one player) with
  when they expire, and the match a rematch follows.
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE players (
    player_id uuid PRIMARY KEY,
    display_name text NOT NULL,
    credential_hash bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    rotated_at timestamptz,
    inbox_seq bigint NOT NULL DEFAULT 0
);

CREATE TABLE player_tokens (
    token_hash bytea PRIMARY KEY,
    player_id uuid NOT NULL REFERENCES players
);
CREATE INDEX player_tokens_player ON player_tokens (player_id);

CREATE TABLE player_matches (
    player_id uuid NOT NULL REFERENCES players,
    match_id uuid NOT NULL REFERENCES matches,
    seat smallint NOT NULL,
    status text NOT NULL CHECK (status IN ('waiting', 'in_progress', 'finished')),
    turn smallint,
    version bigint NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (player_id, match_id)
);
CREATE INDEX player_matches_latest ON player_matches (player_id, position DESC);

CREATE TABLE player_notices (
    player_id uuid NOT NULL REFERENCES players,
    seq bigint NOT NULL,
    kind text NOT NULL,
    match_id uuid,
    payload text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, seq)
);

CREATE TABLE player_projection (
    name text PRIMARY KEY,
    position bigint NOT NULL DEFAULT 0
);
INSERT INTO player_projection (name) VALUES ('players');

CREATE TABLE quick_match (
    player_id uuid PRIMARY KEY REFERENCES players,
    options_key text NOT NULL,
    requested_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    match_id uuid,
    seat smallint
);
CREATE INDEX quick_match_waiting ON quick_match (options_key, requested_at)
    WHERE match_id IS NULL;

CREATE TABLE player_invites (
    code_hash bytea PRIMARY KEY,
    match_id uuid NOT NULL REFERENCES matches,
    from_player uuid NOT NULL REFERENCES players,
    to_player uuid REFERENCES players,
    expires_at timestamptz NOT NULL,
    rematch_of uuid REFERENCES matches
);

ALTER TABLE players OWNER TO gin_owner;
ALTER TABLE quick_match OWNER TO gin_owner;
ALTER TABLE player_invites OWNER TO gin_owner;
ALTER TABLE player_tokens OWNER TO gin_owner;
ALTER TABLE player_matches OWNER TO gin_owner;
ALTER TABLE player_notices OWNER TO gin_owner;
ALTER TABLE player_projection OWNER TO gin_owner;

GRANT SELECT, INSERT, UPDATE (credential_hash, rotated_at, inbox_seq) ON players TO gin_app;
GRANT SELECT, INSERT ON player_tokens TO gin_app;
GRANT SELECT, INSERT, UPDATE (status, turn, version, position) ON player_matches TO gin_app;
GRANT SELECT, INSERT ON player_notices TO gin_app;
GRANT SELECT, UPDATE (position) ON player_projection TO gin_app;
GRANT SELECT, INSERT, UPDATE (match_id, seat), DELETE ON quick_match TO gin_app;
GRANT SELECT, INSERT ON player_invites TO gin_app;
"""

DOWNGRADE = """
DROP TABLE player_invites;
DROP TABLE quick_match;
DROP TABLE player_projection;
DROP TABLE player_notices;
DROP TABLE player_matches;
DROP TABLE player_tokens;
DROP TABLE players;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
