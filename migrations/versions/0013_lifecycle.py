"""Deadlines: the turn clock's pending deadlines, one row per clocked match, kept by the store.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-30

A ``deadline_set`` event names the seat on the clock and when its time runs out. A trigger on
``events`` keeps ``match_deadlines`` in step inside the append's own transaction, so a deadline
exists exactly when the committed events say so: set by ``deadline_set`` (a new deadline
clears any lease), removed by a ``deadline_set`` with nobody on the clock, a ``match_won`` or
a ``match_ended``. The trigger only fires for those three types.

The operator key scope ``matches:adjudicate`` is added to the scopes a key may hold.

Servers claim due rows with ``FOR UPDATE SKIP LOCKED`` under a lease (``lease_until``); the
timeout itself is appended at the match's expected version, so it applies at most once
whatever claims it, and a lease that runs out lets another server take it up.
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

UPGRADE = """
CREATE TABLE match_deadlines (
    stream_id text PRIMARY KEY,
    seat integer NOT NULL,
    due_at timestamptz NOT NULL,
    version bigint NOT NULL,
    lease_until timestamptz
);
CREATE INDEX match_deadlines_due ON match_deadlines (due_at);
-- A match that ended other than by play, found as ``events_match_won`` finds a won one.
CREATE INDEX events_match_ended ON events (stream_id) WHERE type = 'match_ended';

CREATE FUNCTION keep_match_deadline() RETURNS trigger LANGUAGE plpgsql
    SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
    IF NEW.type = 'deadline_set' AND NEW.body->>'due_at' IS NOT NULL THEN
        INSERT INTO match_deadlines (stream_id, seat, due_at, version, lease_until)
        VALUES (NEW.stream_id, (NEW.body->>'seat')::integer,
                (NEW.body->>'due_at')::timestamptz, NEW.version, NULL)
        ON CONFLICT (stream_id) DO UPDATE
            SET seat = EXCLUDED.seat, due_at = EXCLUDED.due_at, version = EXCLUDED.version,
                lease_until = NULL;
    ELSE
        DELETE FROM match_deadlines WHERE stream_id = NEW.stream_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_keep_match_deadline
    AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.type IN ('deadline_set', 'match_won', 'match_ended'))
    EXECUTE FUNCTION keep_match_deadline();

-- Operators may now end their own matches by adjudication.
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'matches:read', 'feed:read', 'feed:all',
                        'webhooks:manage', 'matches:adjudicate']
);

ALTER TABLE match_deadlines OWNER TO gin_owner;
ALTER FUNCTION keep_match_deadline() OWNER TO gin_owner;
REVOKE ALL ON FUNCTION keep_match_deadline() FROM PUBLIC;
GRANT SELECT, UPDATE (lease_until) ON match_deadlines TO gin_app;
"""

DOWNGRADE = """
ALTER TABLE operator_keys DROP CONSTRAINT operator_keys_scopes_check;
ALTER TABLE operator_keys ADD CONSTRAINT operator_keys_scopes_check CHECK (
    cardinality(scopes) >= 1
    AND scopes <@ ARRAY['matches:create', 'matches:read', 'feed:read', 'feed:all',
                        'webhooks:manage']
);
DROP TRIGGER events_keep_match_deadline ON events;
DROP FUNCTION keep_match_deadline();
DROP TABLE match_deadlines;
DROP INDEX events_match_ended;
"""


def upgrade() -> None:
    op.execute(UPGRADE)


def downgrade() -> None:
    op.execute(DOWNGRADE)
