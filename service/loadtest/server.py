"""A service of the load run's own: ``gin serve`` on a free port, over the PostgreSQL it is
given or an embedded one in a temporary folder (durable, fsync on, as deployed), thrown away
when the run ends.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import httpx

from adapters.postgres.database import create_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres

STARTUP_SECONDS = 60.0


@dataclass(frozen=True)
class Service:
    url: str  # the HTTP service
    database_url: str | None  # its PostgreSQL, when the run may reach it


class ServerStartError(RuntimeError):
    pass


@contextmanager
def own_service(
    database_url: str | None, *, workers: int, server: str, log_level: str
) -> Iterator[Service]:
    with ExitStack() as stack:
        if database_url is None:
            database_url = stack.enter_context(_embedded_database())
        yield stack.enter_context(_server(database_url, workers, server, log_level))


@contextmanager
def _embedded_database() -> Iterator[str]:
    folder = Path(tempfile.mkdtemp(prefix="gin-loadtest-"))
    try:
        server = EmbeddedPostgres(folder / "postgres", delete_on_stop=True)
        try:
            create_database(server.url(), "gin")
            yield with_database(server.url(), "gin")
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _server(database_url: str, workers: int, server: str, log_level: str) -> Iterator[Service]:
    port = _free_port()
    command = [
        *(sys.executable, "-m", "cli.main", "serve", "--database-url", database_url),
        *("--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)),
        *("--server", server, "--log-level", log_level),
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=log, stderr=log)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_healthy(url, process, log)
            yield Service(url, database_url)
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_healthy(url: str, process: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerStartError(
                f"the server exited with status {process.returncode}: {_tail(log)}"
            )
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise ServerStartError(f"the server did not answer /health within {STARTUP_SECONDS:.0f}s")


def _tail(log: IO[bytes]) -> str:
    log.seek(0)
    return log.read().decode(errors="replace")[-2000:]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
