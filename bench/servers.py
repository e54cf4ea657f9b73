"""``gin serve`` (or any other server command) as a real process on a free port, answering on
/health before it is handed over, and stopped (workers included) after: for the load test, the
HTTP benchmarks and the end-to-end tests.

It lives in ``bench/`` because the load test and the benchmarks need it and must not import
the test suite, while the tests may import ``bench`` (the repository root is on their path).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

import httpx

from web.rate_limits import NO_LIMITS

STARTUP_SECONDS = 60.0
STOP_SECONDS = 20.0
PORT_ATTEMPTS = 3
# granian says "Address already in use", uvicorn "address already in use".
PORT_TAKEN = "address already in use"


class ServerStartError(RuntimeError):
    """The server exited before it answered, or did not answer in time."""


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: IO[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid

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
def gin_serve(
    database_url: str,
    *extra: str,
    env: Mapping[str, str] | None = None,
    log_level: str | None = "warning",
    cwd: str | None = None,
    ready_path: str = "/health",
    port: int | None = None,
) -> Iterator[Server]:
    """``gin serve`` over ``database_url`` with ``extra`` options (which win over the defaults
    given here), and ``env`` added to this process's environment. ``log_level`` None leaves
    gin serve's own default (what a deployment pays for its request log). ``cwd``: the
    checkout to run it from (this one by default). ``ready_path``: what must answer 200 before
    the server is handed over (``/health/live`` for one started while its database is down).
    ``port``: this one (a server started again where its clients expect it), not a free one."""
    level = ("--log-level", log_level) if log_level is not None else ()

    def command(port: int) -> list[str]:
        return [
            *(sys.executable, "-m", "cli.main", "serve", "--database-url", database_url),
            *("--host", "127.0.0.1", "--port", str(port), *level, *extra),
        ]

    # A benchmark measures the service, not its rate limits: a caller's env may set them.
    env = {**NO_LIMITS.to_env(), **(env or {})}
    with served(command, env, cwd=cwd, ready_path=ready_path, port=port) as server:
        yield server


@contextmanager
def served(
    command: Callable[[int], list[str]],
    env: Mapping[str, str] | None = None,
    *,
    cwd: str | None = None,
    ready_path: str = "/health",
    port: int | None = None,
) -> Iterator[Server]:
    """The server ``command(port)`` starts, on 127.0.0.1 at a free port, once it answers on
    /health; ``env`` is added to this process's environment, less any database URL."""
    with tempfile.TemporaryFile() as log:
        server = _start(command, env or {}, log, cwd, ready_path, port)
        try:
            yield server
        finally:
            _stop(server.process)


def _start(
    command: Callable[[int], list[str]],
    env: Mapping[str, str],
    log: IO[bytes],
    cwd: str | None,
    ready_path: str,
    fixed_port: int | None,
) -> Server:
    # The server's database is the one given, whatever this process's environment names.
    environment = {k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")}
    environment.update(env)
    # A port found free can be taken by another socket before the server binds it: then another.
    for _ in range(PORT_ATTEMPTS):
        log.seek(0)
        log.truncate()
        port = fixed_port or free_port()
        # A session of its own, so the server and every worker it spawns stop together.
        process = subprocess.Popen(
            command(port),
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
            start_new_session=True,
            cwd=cwd,
        )
        server = Server(f"http://127.0.0.1:{port}", process, log)
        try:
            healthy = _wait_until_healthy(server, ready_path)
        except BaseException:
            _stop(process)
            raise
        if healthy:
            return server
        _stop(process)
    raise ServerStartError(f"gin serve found no free port in {PORT_ATTEMPTS} tries")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(STOP_SECONDS)
    # Whatever is left of the group (a worker of a killed server) goes too.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def _wait_until_healthy(server: Server, ready_path: str) -> bool:
    """True once the server answers; False if it exited because its port was taken."""
    deadline = time.monotonic() + STARTUP_SECONDS
    # One client for every try: each new one builds a TLS context (tens of ms of CPU, taken
    # from the server starting beside it), even for a plain-HTTP URL.
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                output = server.output()
                if PORT_TAKEN in output.lower():
                    return False
                raise ServerStartError(f"gin serve exited early:\n{output}")
            try:
                if client.get(server.url + ready_path).status_code == 200:
                    return True
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    raise ServerStartError(
        f"gin serve did not answer within {STARTUP_SECONDS:.0f}s:\n{server.output()}"
    )
