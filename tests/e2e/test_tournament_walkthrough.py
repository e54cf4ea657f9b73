"""docs/tournament.md's "A round's whole life, step by step" runs as written: its ``sh`` blocks,
in order, in one bash (curl and jq) against a real server, with a fresh operator key; what the
document says they print is what they print."""

from __future__ import annotations

import os
import re
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from adapters.postgres.event_store import open_pool
from bench.servers import gin_serve
from tests.app_login import as_app
from tests.tournament.conftest import operator_keys

DOC = Path(__file__).parents[2] / "docs" / "tournament.md"
SECTION = "## A round's whole life, step by step"
SCOPES = ["matches:create", "matches:read", "matches:adjudicate", "feed:read"]


def walkthrough() -> str:
    """The section's ``sh`` blocks, in order, as one script."""
    text = DOC.read_text()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    blocks = re.findall(r"^```sh\n(.*?)^```$", text[start:end], flags=re.DOTALL | re.MULTILINE)
    assert len(blocks) >= 6, "the walkthrough's steps are sh blocks"
    return "set -euo pipefail\n" + "\n".join(blocks)


@pytest.mark.slow
async def test_the_rounds_walkthrough_runs_as_written(database_url: str, tmp_path: Path) -> None:
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        made = await operator_keys(pool).create_key("Spring Cup", SCOPES)

    with gin_serve(as_app(database_url)) as server:
        run = subprocess.run(
            ["bash", "-c", walkthrough()],
            cwd=tmp_path,
            env={**os.environ, "GIN": server.url, "KEY": made.key},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    started = next(line for line in lines if line.startswith("round "))
    start = datetime.fromisoformat(started.split(" starts at ")[1])
    assert lines[lines.index(started) + 1] == "/problems/match-not-started"
    due = datetime.fromisoformat(lines[lines.index(started) + 2])
    assert due == start + timedelta(seconds=360)
    assert "no more pages" in lines
    assert [line for line in lines if line.startswith("cup-r1-m") and " " in line] == [
        "cup-r1-m1 in_progress",
        "cup-r1-m2 in_progress",
    ]
    feed = [line for line in lines if line.endswith(" cup-r1-m1 true")]
    assert feed
    assert {line.split()[0] for line in feed} >= {"match_created", "cards_cut"}
    assert not any(" cup-r1-m1 false" in line for line in lines)
    postponed = next(line for line in lines if line.startswith("postponed to "))
    later = datetime.fromisoformat(postponed.removeprefix("postponed to "))
    assert later == start + timedelta(seconds=60)
    assert datetime.fromisoformat(lines[lines.index(postponed) + 1]) == later + timedelta(
        seconds=360
    )
    started_now = next(line for line in lines if line.startswith("started at "))
    now = datetime.fromisoformat(started_now.removeprefix("started at "))
    assert now < start
    due_now = datetime.fromisoformat(lines[lines.index(started_now) + 1])
    assert due_now == now + timedelta(seconds=360)
    assert [line for line in lines if "token:" in line] == ["old token: 403", "new token: 200"]
    assert lines.count("cancelled: true") == 2
    assert '{"reason":"voided","seat":null,"winner":null,"note":"the venue closed"}' in lines
    assert lines[-2:] == ["finished", "finished"]
