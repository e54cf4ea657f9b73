"""Real server processes for end-to-end tests: ``gin serve`` on a free port, stopped after."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

import httpx

STARTUP_SECONDS = 60.0
PORT_ATTEMPTS = 3
PORT_TAKEN = "Address already in use"


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: IO[bytes]

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """Stop at once, as a crash would: no shutdown, no flushing; workers included."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def gin_serve(database_url: str, *extra: str) -> Iterator[Server]:
    """``gin serve`` against ``database_url``, answering on /health before it is yielded."""
    with tempfile.TemporaryFile() as log:
        server = _start(database_url, extra, log)
        try:
            yield server
        finally:
            _stop(server.process)


def _start(database_url: str, extra: tuple[str, ...], log: IO[bytes]) -> Server:
    # A free port can be taken by another socket before the server binds it: then another.
    for _ in range(PORT_ATTEMPTS):
        log.seek(0)
        log.truncate()
        port = free_port()
        command = [
            *(sys.executable, "-m", "cli.main", "serve", "--database-url", database_url),
            *("--port", str(port), "--log-level", "warning", *extra),
        ]
        env = {k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")}
        # A session of its own, so the server and every worker it spawns stop together.
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        server = Server(f"http://127.0.0.1:{port}", process, log)
        try:
            healthy = _wait_until_healthy(server)
        except BaseException:
            _stop(process)
            raise
        if healthy:
            return server
        _stop(process)
    raise RuntimeError(f"gin serve found no free port in {PORT_ATTEMPTS} tries")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(20)
    # Whatever is left of the group (a worker of a killed server) goes too.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def _wait_until_healthy(server: Server) -> bool:
    """True once the server answers; False if it exited because its port was taken."""
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            output = server.output()
            if PORT_TAKEN in output:
                return False
            raise RuntimeError(f"gin serve exited early:\n{output}")
        try:
            if httpx.get(f"{server.url}/health", timeout=1).status_code == 200:
                return True
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gin serve did not answer within {STARTUP_SECONDS}s:\n{server.output()}")
