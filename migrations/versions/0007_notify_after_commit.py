"""Wake-ups leave the commit path: no more NOTIFY from a trigger inside each append.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30

Migration 0002's trigger sent ``NOTIFY`` for every row appended to a match stream, inside the
append's transaction. PostgreSQL serialises notifying transactions across the whole cluster:
``PreCommit_Notify`` takes a lock that is held through the commit's WAL flush, so appends no
longer shared a flush (group commit) and ran one after another. The event store now sends the
wake-up itself, in a transaction of its own right after the append commits
(``adapters/postgres/event_store.py``), one per append rather than one per row.
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# 0002's trigger, as it was; ``bench/notify.py`` also puts it back to measure against it.
TRIGGER = """
CREATE FUNCTION notify_match_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gin_match_events', NEW.stream_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_match
    AFTER INSERT ON events
    FOR EACH ROW WHEN (NEW.stream_id LIKE 'match-%')
    EXECUTE FUNCTION notify_match_event();
"""

DROP_TRIGGER = """
DROP TRIGGER events_notify_match ON events;
DROP FUNCTION notify_match_event();
"""


def upgrade() -> None:
    op.execute(DROP_TRIGGER)


def downgrade() -> None:
    # Code of 0006 relies on the trigger alone; code of 0007 would then wake readers twice,
    # which is harmless.
    op.execute(TRIGGER)
