"""The lookups of a tournament desk (an operator's rounds in creation order, the matches of one
external player), a failed webhook delivery sent again, and a webhook's secret rotated with
an overlap, and a round's start brought forward.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-02

``GET /rounds`` pages an operator's rounds by (created_at, round_id), and
``GET /operator/matches?external_player_id=`` finds a player's seats; without these each read
scans its whole table. Both tables are small beside the event log, and written once per match
or round, never per command.

``webhook_deliveries.extra_attempts`` is how many attempts past the server's limit an operator
granted a delivery by asking for it again (``POST .../deliveries/{id}/redelivery``): one each
time. The attempts already made stay in its log, numbered on.

``webhooks.previous_secret`` is the secret a rotation replaced, kept until
``previous_secret_until``: until then every delivery is signed by both, so a receiver can
switch at any moment of the overlap.
"""

from __future__ import annotations

from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "ALTER TABLE webhook_deliveries "
        "ADD COLUMN extra_attempts integer NOT NULL DEFAULT 0 CHECK (extra_attempts >= 0)"
    )
    op.execute(
        "GRANT UPDATE (extra_attempts, status, next_attempt_at, last_error) "
        "ON webhook_deliveries TO gin_app"
    )
    op.execute("GRANT UPDATE (start_at) ON rounds TO gin_app")  # a start brought forward
    op.execute(
        "ALTER TABLE webhooks ADD COLUMN previous_secret text, "
        "ADD COLUMN previous_secret_until timestamptz"
    )
    op.execute(
        "GRANT UPDATE (secret, previous_secret, previous_secret_until) ON webhooks TO gin_app"
    )
    op.execute("CREATE INDEX rounds_by_operator ON rounds (operator_id, created_at, round_id)")
    op.execute(
        "CREATE INDEX match_seats_external_player ON match_seats (external_player_id) "
        "WHERE external_player_id IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("ALTER TABLE webhooks DROP COLUMN previous_secret_until")
    op.execute("ALTER TABLE webhooks DROP COLUMN previous_secret")
    op.execute("ALTER TABLE webhook_deliveries DROP COLUMN extra_attempts")
    op.execute("REVOKE UPDATE (start_at) ON rounds FROM gin_app")
    op.execute("DROP INDEX match_seats_external_player")
    op.execute("DROP INDEX rounds_by_operator")
