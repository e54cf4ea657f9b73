"""Database roles: the service's login, and the warning when it connects with too much power.

Migration 0008 makes the group roles: ``gin_owner`` owns the schema, ``gin_app`` holds what the
service needs. A login for the service is a role with ``LOGIN`` that is granted ``gin_app`` and
nothing else; ``ensure_login`` makes one (the embedded server's ``gin_service``, the tests'
login). ``privilege_warning`` says what is wrong when the service's own connection could
alter the schema or switch off the append-only trigger.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from adapters.postgres.migrate import MIGRATION_LOCK

OWNER_ROLE = "gin_owner"
APP_ROLE = "gin_app"
SERVICE_LOGIN = "gin_service"

# Whether the current user is a superuser, or may act as the owner of ``events``.
POWERS = """
SELECT r.rolsuper,
       pg_has_role(current_user, c.relowner, 'USAGE') AS owns_events
FROM pg_roles r, pg_class c
WHERE r.rolname = current_user AND c.oid = 'public.events'::regclass
"""


def ensure_login(admin_url: str, login: str, *, password: str | None = None) -> None:
    """Make ``login`` a login role granted ``gin_app``, if it is not one already.

    Roles belong to the whole cluster: two processes (or two databases' setups) may do this at
    once, so creating the role is allowed to find it made meanwhile.
    """
    with psycopg.connect(admin_url, autocommit=True) as connection:
        for attempt in range(3):
            try:
                with connection.transaction():
                    connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                    _create_login(connection, login, password)
                return
            except (psycopg.errors.DuplicateObject, psycopg.errors.UniqueViolation):
                if attempt == 2:
                    raise


def _create_login(
    connection: psycopg.Connection[tuple[object, ...]], login: str, password: str | None
) -> None:
    exists = connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (login,)).fetchone()
    role = sql.Identifier(login)
    if exists is None:
        connection.execute(sql.SQL("CREATE ROLE {} LOGIN").format(role))
    if password is not None:
        connection.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(role, sql.Literal(password)))
    granted = connection.execute(
        "SELECT pg_has_role(%s, %s, 'MEMBER')", (login, APP_ROLE)
    ).fetchone()
    if not (granted and granted[0]):
        connection.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(APP_ROLE), role))


def with_login(url: str, login: str, password: str | None = None) -> str:
    """The same server and database, as another user."""
    parts = urlsplit(url)
    user = quote(login, safe="")
    if password is not None:
        user += ":" + quote(password, safe="")
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}@{host}"))


async def privilege_warning(connection: psycopg.AsyncConnection[tuple[object, ...]]) -> str | None:
    """Why this connection has more power than the service should, or None if it has not."""
    cursor = await connection.execute(POWERS)
    row = await cursor.fetchone()
    if row is None:
        return None
    superuser, owns_events = row
    if not (superuser or owns_events):
        return None
    who = "a superuser" if superuser else "the owner of the events table"
    return (
        f"connected to PostgreSQL as {who}: this service could alter the schema and switch "
        f"off the append-only trigger; serve through a login granted only {APP_ROLE} "
        "(docs/operations.md, Database roles)"
    )
