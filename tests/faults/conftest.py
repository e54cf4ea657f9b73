"""A PostgreSQL of the fault tests' own, which a test may stop and start again.

The session's shared server (``tests/conftest.py``) must stay up for every other test, so the
outage tests get an embedded server in a folder of their own: stopping it is ``pg_ctl stop``
(fast mode: every session is told to go and disconnected), starting it again finds the same
data, at the same address.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from adapters.postgres.database import create_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade
from adapters.postgres.roles import ensure_login
from tests.app_login import TEST_APP_LOGIN, TEST_APP_PASSWORD
from tests.conftest import refuse_without_postgres


class Outage:
    """The fault server and its ``gin`` database, migrated."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server: EmbeddedPostgres | None = EmbeddedPostgres(folder)
        self.admin_url = self.server.url()
        create_database(self.admin_url, "gin", exist_ok=True)
        self.url = with_database(self.admin_url, "gin")
        upgrade(self.url)
        # The apps under test serve as the application login, as in production.
        ensure_login(self.admin_url, TEST_APP_LOGIN, password=TEST_APP_PASSWORD)

    def stop(self) -> None:
        assert self.server is not None, "already stopped"
        self.server.stop()
        self.server = None

    def start(self) -> float:
        """Start the server again; the moment it answers (``time.monotonic``)."""
        assert self.server is None, "already running"
        self.server = EmbeddedPostgres(self.folder)
        assert self.server.url() == self.admin_url, "the server came back elsewhere"
        return time.monotonic()

    @contextmanager
    def frozen(self) -> Iterator[None]:
        """Every process of the server stopped (SIGSTOP) while inside: connections stay open
        and nothing answers, as with a hung host; continued after."""
        assert self.server is not None, "stopped, not running"
        pid_file = next(self.folder.rglob("postmaster.pid"))
        postmaster = psutil.Process(int(pid_file.read_text().split()[0]))
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            process.suspend()
        try:
            yield
        finally:
            for process in processes:
                process.resume()

    def close(self) -> None:
        if self.server is None:
            self.server = EmbeddedPostgres(self.folder)
        self.server.stop()


@pytest.fixture(scope="session")
def outage() -> Iterator[Outage]:
    refuse_without_postgres()
    folder = Path(tempfile.mkdtemp(prefix="gin-fault-pg-")) / "postgres"
    server = Outage(folder)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def database_back(outage: Outage) -> Iterator[Outage]:
    """``outage``, started again after the test if the test left it stopped."""
    yield outage
    if outage.server is None:
        outage.start()
