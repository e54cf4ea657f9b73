"""``gin db upgrade`` and ``gin serve`` pointed at a database host that accepts connections and
never answers (a listening socket nobody reads: the kernel completes every handshake). The
upgrade gives up with a message and a non-zero exit instead of hanging; the service serves
meanwhile: ``/health/live`` 200, ``/health/ready`` and the API 503."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.servers import gin_serve

ROOT = Path(__file__).resolve().parents[2]
# Only a hang takes this long: the migration's connection gives up long before.
HANG = 120

pytestmark = pytest.mark.slow


@pytest.fixture
def frozen_url() -> Iterator[str]:
    """A PostgreSQL URL whose host accepts TCP connections and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)  # never accepted: the kernel's backlog holds them, silent
        port = listener.getsockname()[1]
        yield f"postgresql://gin:secret@127.0.0.1:{port}/gin"


def test_gin_db_upgrade_gives_up_on_a_database_that_never_answers(frozen_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "db", "upgrade", "--database-url", frozen_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert done.returncode == 1, done
    assert "does not answer" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert "secret" not in done.stderr + done.stdout


async def test_gin_serve_serves_while_its_database_never_answers(frozen_url: str) -> None:
    with gin_serve(frozen_url, ready_path="/health/live") as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=HANG) as http:
            assert (await http.get("/health/live")).status_code == 200
            ready = await http.get("/health/ready")
            assert ready.status_code == 503
            assert ready.json()["database"] == "unreachable"
            refused = await http.post("/matches", json={})
            assert refused.status_code == 503, refused.text
            assert refused.json()["type"] == "/problems/database-unavailable"
        assert "Traceback" not in server.output()
