"""Alembic's entry point: run the migrations against one PostgreSQL database.

The URL comes from ``adapters.postgres.migrate.upgrade(url)`` (the service and
``gin db upgrade``) or, when Alembic is run by hand, from ``DATABASE_URL``. Migrations are raw
SQL (``op.execute``), so no SQLAlchemy models exist anywhere; SQLAlchemy is only Alembic's way
to connect.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine, pool, text

from adapters.postgres.migrate import MIGRATION_LOCK, connect_arguments, sqlalchemy_url


def _database_url() -> str:
    url = context.config.attributes.get("database_url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("no database to migrate: set DATABASE_URL")
    return sqlalchemy_url(str(url))


def run_offline() -> None:
    context.configure(url=_database_url(), literal_binds=True, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    engine = create_engine(
        _database_url(), poolclass=pool.NullPool, connect_args=connect_arguments()
    )
    with engine.connect() as connection:
        context.configure(connection=connection, transactional_ddl=True)
        with context.begin_transaction():
            # Two processes starting at once must not both run the same migration.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
