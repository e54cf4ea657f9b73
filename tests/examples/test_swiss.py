"""The Swiss example runs a whole event against a real server: 8 players, 3 rounds (16 and 4
unless told otherwise: the same code, in half the time), each round a batch, every match played
out and its end received as a verified webhook."""

from __future__ import annotations

import subprocess
import sys

import pytest

from adapters.postgres.event_store import open_pool
from bench.servers import gin_serve
from tests.app_login import as_app
from tests.tournament.conftest import operator_keys

SERVER_ENV = {
    # The example's receiver listens on this machine's loopback.
    "GIN_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
    "GIN_WEBHOOK_POLL_SECONDS": "0.1",
    "GIN_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
}


@pytest.mark.slow
async def test_the_swiss_example_runs_an_event_to_its_standings(database_url: str) -> None:
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        made = await operator_keys(pool).create_key(
            "Swiss example", ["matches:create", "matches:read", "webhooks:manage"]
        )

    with gin_serve(as_app(database_url), env=SERVER_ENV) as server:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "examples.swiss.run",
                "--url",
                server.url,
                "--key",
                made.key,
                "--seed",
                "7",
                "--event",
                "spring-swiss",
                "--players",
                "8",
                "--rounds",
                "3",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert [line for line in lines if line.startswith("Round ")] == [
        f"Round {n}" for n in (1, 2, 3)
    ]
    assert sum(1 for line in lines if " wins" in line) == 3 * 4
    final = next(n for n, line in enumerate(lines) if line.startswith("Final standings"))
    standings = lines[final + 1 :]
    assert len(standings) == 8
    assert "0 refused" in run.stdout
