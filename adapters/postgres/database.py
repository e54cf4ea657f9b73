"""Which PostgreSQL the service talks to: the server named by a URL, or an embedded one.

With a URL the service uses that server and starts nothing. Without one it starts (or
reuses) the embedded server in ``<data_dir>/postgres`` and creates the database on first start.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade

DEFAULT_DATA_DIR = Path(".data")
DEFAULT_DATABASE = "gin"


@dataclass(frozen=True)
class Database:
    url: str
    embedded: EmbeddedPostgres | None = None

    def close(self) -> None:
        if self.embedded is not None:
            self.embedded.stop()


def open_database(
    url: str | None = None,
    *,
    data_dir: Path | None = None,
    name: str = DEFAULT_DATABASE,
    migrate: bool = True,
) -> Database:
    """The service's database, migrated to the newest schema unless ``migrate`` is false.

    ``url`` defaults to ``GIN_DATABASE_URL`` or ``DATABASE_URL``; ``data_dir`` (the service's
    data folder) to ``GIN_DATA_DIR`` or ``.data``.
    """
    url = url or os.environ.get("GIN_DATABASE_URL") or os.environ.get("DATABASE_URL") or None
    if url is not None:
        database = Database(url)
    else:
        folder = data_dir or Path(os.environ.get("GIN_DATA_DIR") or DEFAULT_DATA_DIR)
        server = EmbeddedPostgres(folder / "postgres")
        create_database(server.url(), name, exist_ok=True)
        database = Database(with_database(server.url(), name), server)
    if migrate:
        upgrade(database.url)
    return database


def create_database(
    admin_url: str, name: str, *, template: str | None = None, exist_ok: bool = False
) -> None:
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template is not None:
        statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    with psycopg.connect(admin_url, autocommit=True) as connection:
        if exist_ok and database_exists(connection, name):
            return
        connection.execute(statement)


def drop_database(admin_url: str, name: str) -> None:
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def database_exists(connection: psycopg.Connection[tuple[object, ...]], name: str) -> bool:
    cursor = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
    return cursor.fetchone() is not None


def with_database(url: str, name: str) -> str:
    """The same server URL, pointing at database ``name``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + quote(name)))
