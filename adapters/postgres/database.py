"""Which PostgreSQL the service talks to: the server named by a URL, or an embedded one.

With a URL the service uses that server and starts nothing. Without one it starts (or
reuses) the embedded server in ``<data_dir>/postgres`` and creates the database on first start.

Two URLs: ``url`` migrates and administers (the owner: ``gin db upgrade``, ``gin operator``),
``service_url`` is what the service serves through. On the embedded server the first is its
superuser and the second the login ``gin_service``, granted only ``gin_app`` (trusted on the
server's unix socket, so it has no password). With a URL of your own both are that URL, unless
``GIN_MIGRATION_DATABASE_URL`` names an owner's URL to migrate with (docs/operations.md).
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
from adapters.postgres.roles import SERVICE_LOGIN, ensure_login, with_login

DEFAULT_DATA_DIR = Path(".data")
DEFAULT_DATABASE = "gin"


@dataclass(frozen=True)
class Database:
    url: str
    embedded: EmbeddedPostgres | None = None
    # The login the service serves through, when it is not ``url``'s.
    service_login_url: str | None = None

    @property
    def service_url(self) -> str:
        return self.service_login_url or self.url

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
        if migrate:
            upgrade(migration_url(url))
        return Database(url)
    folder = data_dir or Path(os.environ.get("GIN_DATA_DIR") or DEFAULT_DATA_DIR)
    server = EmbeddedPostgres(folder / "postgres")
    create_database(server.url(), name, exist_ok=True)
    owner_url = with_database(server.url(), name)
    if migrate:
        upgrade(owner_url)
        ensure_login(owner_url, SERVICE_LOGIN)
    return Database(owner_url, server, with_login(owner_url, SERVICE_LOGIN))


def migration_url(url: str) -> str:
    """The URL to migrate a service's database with: the owner's, when one is named."""
    return os.environ.get("GIN_MIGRATION_DATABASE_URL") or url


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
