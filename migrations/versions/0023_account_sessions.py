"""Accounts a phone can keep: sessions, and the identities that sign a player in.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-02

- ``account_sessions``: one row per signed-in device (a session family). It keeps the SHA-256
  of the current access token and of the current refresh token, never the tokens, and when
  each stops working. A refresh replaces both hashes; ``revoked_at`` ends the family.
- ``account_spent_refresh``: the hashes of refresh tokens already traded in, with their
  family: one of them coming back means it was stolen or copied, and the family is revoked.
- ``account_identities``: the ways into an account beside its credential: an OpenID Connect
  issuer and subject, or a device id and the SHA-256 of the device's secret.
"""

from __future__ import annotations

from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE account_sessions (
    session_id uuid PRIMARY KEY,
    player_id uuid NOT NULL REFERENCES players,
    access_hash bytea NOT NULL UNIQUE,
    access_expires_at timestamptz NOT NULL,
    refresh_hash bytea NOT NULL UNIQUE,
    refresh_expires_at timestamptz NOT NULL,
    signed_in_with text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    refreshed_at timestamptz,
    revoked_at timestamptz
);
CREATE INDEX account_sessions_player ON account_sessions (player_id);

CREATE TABLE account_spent_refresh (
    refresh_hash bytea PRIMARY KEY,
    session_id uuid NOT NULL REFERENCES account_sessions ON DELETE CASCADE
);

CREATE TABLE account_identities (
    identity_id uuid PRIMARY KEY,
    player_id uuid NOT NULL REFERENCES players,
    kind text NOT NULL CHECK (kind IN ('oidc', 'device')),
    issuer text NOT NULL,
    subject text NOT NULL,
    secret_hash bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, issuer, subject)
);
CREATE INDEX account_identities_player ON account_identities (player_id);

ALTER TABLE account_sessions OWNER TO gin_owner;
ALTER TABLE account_spent_refresh OWNER TO gin_owner;
ALTER TABLE account_identities OWNER TO gin_owner;
GRANT SELECT, INSERT, UPDATE (access_hash, access_expires_at, refresh_hash, refresh_expires_at,
    refreshed_at, revoked_at) ON account_sessions TO gin_app;
GRANT SELECT, INSERT ON account_spent_refresh TO gin_app;
GRANT SELECT, INSERT, DELETE ON account_identities TO gin_app;
"""

DOWNGRADE = """
DROP TABLE account_identities;
DROP TABLE account_spent_refresh;
DROP TABLE account_sessions;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
