"""Apply the Alembic migrations in ``migrations/`` to a database, from Python.

The schema exists only through these migrations; the service runs ``upgrade`` when it starts
and ``gin db upgrade`` runs it by hand. Alembic is synchronous: call it before the event loop
starts, or in a worker thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import psycopg
import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

import migrations
from adapters.postgres.pool import unreachable

# An arbitrary constant: the advisory lock that keeps two migrating processes apart.
MIGRATION_LOCK = 0x67696E5F6D6967

MIGRATIONS_DIR = Path(next(iter(migrations.__path__))).resolve()
# How long the migration's connection waits for the server to answer before it gives up: a
# host that accepts connections and never answers (a frozen server) would otherwise hold
# ``gin db upgrade``, and ``gin serve`` before it serves anything, for as long as it is frozen.
CONNECT_TIMEOUT_SECONDS = 5


def sqlalchemy_url(url: str) -> str:
    """A libpq URL (``postgresql://...``) as SQLAlchemy's psycopg 3 dialect wants it."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + hosts_in_query(url.removeprefix(prefix))
    raise ValueError(f"not a PostgreSQL URL: {url!r}")


def hosts_in_query(rest: str) -> str:
    """A URL's part after the scheme with a list of hosts (``h1:5432,h2:5432``, a primary and
    its standby) moved to ``host=`` query parameters: libpq takes the list in the authority,
    SQLAlchemy only as repeated parameters (it would read ``5432,h2:5432`` as a port)."""
    authority, _, path = rest.partition("/")
    credentials, at, hosts = authority.rpartition("@")
    if "," not in hosts:
        return rest
    database, question, query = path.partition("?")
    listed = "&".join(f"host={quote(host, safe=':[]')}" for host in hosts.split(","))
    return f"{credentials}{at}/{database}?{listed}" + (f"&{query}" if question else "")


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = url
    return config


def connect_arguments() -> dict[str, object]:
    """What the migration's connection is opened with (``migrations/env.py``)."""
    return {"connect_timeout": CONNECT_TIMEOUT_SECONDS}


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def cannot_reach(error: Exception) -> bool:
    """Whether a migration failed because the database does not answer (so may be retried)."""
    cause = error.orig if isinstance(error, sqlalchemy.exc.DBAPIError) else error
    return isinstance(cause, psycopg.OperationalError) and unreachable(cause)


def upgrade_when_reachable(
    url: str, report: Callable[[str], None], *, retry_seconds: float = 1.0
) -> threading.Thread:
    """Upgrade in a daemon thread, trying again while the database does not answer; each
    outcome told to ``report``. For a server that starts during an outage: it answers 503
    (readiness: migrations pending) until this is done."""

    def run() -> None:
        while True:
            try:
                upgrade(url)
            except Exception as error:
                if cannot_reach(error):
                    time.sleep(retry_seconds)
                    continue
                report(f"migrating failed: {error}")
                return
            report("the database answers: migrations applied")
            return

    thread = threading.Thread(target=run, name="gin-migrate", daemon=True)
    thread.start()
    return thread


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def heads() -> frozenset[str]:
    """The newest revisions the migrations know: a database at these has nothing pending."""
    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())
