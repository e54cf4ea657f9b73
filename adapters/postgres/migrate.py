"""Apply the Alembic migrations in ``migrations/`` to a database, from Python.

The schema exists only through these migrations; the service runs ``upgrade`` when it starts
and ``gin db upgrade`` runs it by hand. Alembic is synchronous: call it before the event loop
starts, or in a worker thread.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory

import migrations

# An arbitrary constant: the advisory lock that keeps two migrating processes apart.
MIGRATION_LOCK = 0x67696E5F6D6967

MIGRATIONS_DIR = Path(next(iter(migrations.__path__))).resolve()


def sqlalchemy_url(url: str) -> str:
    """A libpq URL (``postgresql://...``) as SQLAlchemy's psycopg 3 dialect wants it."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    raise ValueError(f"not a PostgreSQL URL: {url!r}")


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["database_url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def heads() -> frozenset[str]:
    """The newest revisions the migrations know: a database at these has nothing pending."""
    return frozenset(ScriptDirectory.from_config(alembic_config("")).get_heads())
