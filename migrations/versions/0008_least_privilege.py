"""Least privilege: an owner role owns the schema, the service connects as an application role.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30

Until now every object belonged to whoever ran the migrations, usually a superuser, and the
service connected as that same user: it could switch off the append-only trigger on
``events`` (or rewrite ``streams``) and nothing in the database would stop it.

Two group roles (``NOLOGIN``), created here if the cluster has none yet (roles belong to the
whole cluster, so another database may have made them already; the creation is idempotent):

- ``gin_owner`` owns every table, sequence and function of the schema. Only it (and
  superusers) can ALTER them, drop them or disable a trigger. Whoever migrates is made a member
  so the next migration may alter what it owns.
- ``gin_app`` is what the service's login is granted: it reads what it needs and writes only
  the rows the code writes, with column lists where the code updates a few columns. It cannot
  write ``events``, ``streams`` or ``idempotency_keys`` at all: appends go through
  ``append_events``, which now runs ``SECURITY DEFINER`` as ``gin_owner`` with a fixed
  ``search_path`` (``pg_temp`` last, so no temporary object of the caller's can shadow a table
  or function it names).

``CREATE`` on schema ``public`` is taken from ``PUBLIC`` (PostgreSQL 15 and later already do):
otherwise the service's login could create objects there.

A later migration that adds a table or function must set its owner to ``gin_owner`` and grant
``gin_app`` what the code needs; one that replaces ``append_events`` must restate
``SECURITY DEFINER`` and its ``search_path`` (``CREATE OR REPLACE`` resets both).
``tests/integration/test_roles.py`` fails otherwise.

The login roles are not made here: a migration should not hold passwords. ``gin serve`` makes
``gin_service`` on its embedded server; with a server of your own, see docs/operations.md.
The downgrade gives everything back to the user running it and leaves the roles in place (other
databases of the cluster may use them).
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

APPEND_EVENTS = "append_events(text, bigint, text[], integer[], bytea[], text, bytea)"

ROLES = """
DO $$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['gin_owner', 'gin_app'] LOOP
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', r);
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL;  -- another database's migration made it meanwhile
            END;
        END IF;
    END LOOP;
    -- USAGE, not MEMBER: on PostgreSQL 16 the creator of a role is a member that may neither
    -- inherit it nor SET ROLE to it, and ALTER ... OWNER TO needs the latter.
    IF NOT pg_has_role(current_user, 'gin_owner', 'USAGE') THEN
        EXECUTE format('GRANT gin_owner TO %I', current_user);
    END IF;
END
$$;
"""

# Every table (its identity sequences and indexes follow) and function, whatever the earlier
# migrations left: found in the catalogue rather than listed, so this holds for any of them.
OWNERSHIP = """
GRANT USAGE, CREATE ON SCHEMA public TO gin_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO gin_app;

DO $$
DECLARE
    object regclass;
    routine regprocedure;
BEGIN
    FOR object IN
        SELECT c.oid::regclass FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm')
    LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO gin_owner', object);
    END LOOP;
    FOR routine IN
        SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO gin_owner', routine);
        EXECUTE format('REVOKE ALL ON ROUTINE %s FROM PUBLIC', routine);
    END LOOP;
END
$$;
"""

GRANTS = f"""
ALTER FUNCTION {APPEND_EVENTS} SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp;
GRANT EXECUTE ON FUNCTION {APPEND_EVENTS} TO gin_app;

-- The event store: read only; appends only through append_events.
GRANT SELECT ON streams, events, idempotency_keys TO gin_app;
GRANT SELECT, INSERT, UPDATE (version, state_type, data, saved_at) ON snapshots TO gin_app;

-- What a match keeps beside its events.
GRANT SELECT, INSERT ON matches TO gin_app;
GRANT SELECT, INSERT, UPDATE (token_hash, entropy) ON match_seats TO gin_app;
GRANT SELECT, INSERT, UPDATE (accepted_at) ON match_invites TO gin_app;
GRANT SELECT, INSERT, DELETE ON seed_commitments TO gin_app;

-- Operators and their keys are made and revoked by `gin operator`, as the owner.
GRANT SELECT ON operators, operator_keys TO gin_app;

-- Webhooks, the dispatcher's cursor, the delivery queue and its attempts.
GRANT SELECT, INSERT, UPDATE (deleted_at) ON webhooks TO gin_app;
GRANT SELECT, UPDATE (position, updated_at) ON webhook_cursor TO gin_app;
GRANT SELECT, INSERT,
    UPDATE (status, attempts, next_attempt_at, lease_until, lease_token, last_error,
            delivered_at)
    ON webhook_deliveries TO gin_app;
GRANT SELECT, INSERT, UPDATE (finished_at, status_code, error) ON webhook_attempts TO gin_app;

-- gin serve upgrades on start: with nothing to do, reading the version is all it needs.
GRANT SELECT ON alembic_version TO gin_app;
"""

DOWNGRADE = f"""
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM gin_app;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM gin_app;
REVOKE USAGE ON SCHEMA public FROM gin_app;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO PUBLIC;
ALTER FUNCTION {APPEND_EVENTS} SECURITY INVOKER RESET search_path;
REASSIGN OWNED BY gin_owner TO CURRENT_USER;
REVOKE USAGE, CREATE ON SCHEMA public FROM gin_owner;
"""


def upgrade() -> None:
    op.execute(ROLES)
    op.execute(OWNERSHIP)
    op.execute(GRANTS)


def downgrade() -> None:
    op.execute(DOWNGRADE)
