"""``gin serve`` on a port that is already listened on refuses to start, in one line, rather
than sharing the port through SO_REUSEPORT (issue 13, finding 5)."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.servers import gin_serve

ROOT = Path(__file__).resolve().parents[2]


def serve_on(port: int, database_url: str) -> subprocess.CompletedProcess[str]:
    command = [
        *(sys.executable, "-m", "cli.main", "serve", "--database-url", database_url),
        *("--host", "127.0.0.1", "--port", str(port)),
    ]
    # Bounded: before the fix this started serving and never returned.
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.fixture
def shared_listener() -> Iterator[int]:
    """A socket listening the way granian listens: with SO_REUSEPORT."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def test_a_port_held_with_reuseport_is_refused(shared_listener: int, database_url: str) -> None:
    result = serve_on(shared_listener, database_url)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"gin: cannot serve on 127.0.0.1:{shared_listener}: "
        "address already in use (is another gin serve running?)"
    ]


@pytest.mark.slow
def test_a_second_gin_serve_on_the_same_port_does_not_start(database_url: str) -> None:
    with gin_serve(database_url) as first:
        port = int(first.url.rsplit(":", 1)[1])
        result = serve_on(port, database_url)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "address already in use" in result.stderr
        assert first.process.poll() is None
