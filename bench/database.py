"""Throwaway PostgreSQL for a benchmark or a load run: an embedded server in a temporary folder
(fsync on, as deployed), or a migrated database of its own on ``--database-url``."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

from adapters.postgres.database import create_database, drop_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """Yield the maintenance URL of an embedded server in a temporary folder; remove both after."""
    folder = Path(tempfile.mkdtemp(prefix="gin-bench-pg-"))
    try:
        server = EmbeddedPostgres(folder / "postgres", delete_on_stop=True)
        try:
            yield server.url()
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def temporary_database(name: str) -> Iterator[str]:
    """Yield the URL of database ``name``, empty, on a temporary embedded server."""
    with temporary_postgres() as admin_url:
        create_database(admin_url, name)
        yield with_database(admin_url, name)


@contextmanager
def bench_database(admin_url: str | None, prefix: str) -> Iterator[str]:
    """Yield the URL of a new migrated database; drop it (and any embedded server) after."""
    with ExitStack() as stack:
        embedded = admin_url is None
        if admin_url is None:
            admin_url = stack.enter_context(temporary_postgres())
        name = f"{prefix}_{os.getpid()}"
        create_database(admin_url, name)
        try:
            url = with_database(admin_url, name)
            upgrade(url)
            print(f"PostgreSQL: {'embedded, temporary' if embedded else 'from --database-url'}")
            yield url
        finally:
            drop_database(admin_url, name)


@contextmanager
def sibling_database(url: str, suffix: str) -> Iterator[str]:
    """An empty database beside ``url``'s on the same server, dropped after: for a release
    that migrates its own schema, which a newer schema's revisions would make it refuse."""
    name = f"{unquote(urlsplit(url).path.lstrip('/'))}_{suffix}"
    create_database(url, name)
    try:
        yield with_database(url, name)
    finally:
        drop_database(url, name)
