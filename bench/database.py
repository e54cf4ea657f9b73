"""A migrated throwaway database for a benchmark: on ``--database-url`` if given, otherwise on
an embedded PostgreSQL in a temporary folder (fsync on, as deployed)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from adapters.postgres.database import create_database, drop_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade


@contextmanager
def bench_database(admin_url: str | None, prefix: str) -> Iterator[str]:
    """Yield the URL of a new migrated database; drop it (and any embedded server) after."""
    server = None
    if admin_url is None:
        server = EmbeddedPostgres(
            Path(tempfile.mkdtemp(prefix="gin-bench-pg-")), delete_on_stop=True
        )
        admin_url = server.url()
    name = f"{prefix}_{os.getpid()}"
    create_database(admin_url, name)
    try:
        url = with_database(admin_url, name)
        upgrade(url)
        print(f"PostgreSQL: {'embedded, temporary' if server else 'from --database-url'}")
        yield url
    finally:
        drop_database(admin_url, name)
        if server is not None:
            server.stop()
