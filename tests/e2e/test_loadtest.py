"""The load test (``python3 dev.py loadtest``) end to end: a real server process of its own on
a free port, clients on both seats of concurrent matches over real HTTP, and every finished
match's record verified."""

from __future__ import annotations

import re
import socket

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from bench.loadtest import main
from bench.loadtest.players import Client, play_one
from bench.loadtest.records import record_problem
from bench.loadtest.stats import Stats
from web.app import create_app
from web.settings import Settings


def table_rows(out: str) -> list[dict[str, str]]:
    """The rows of the printed table, by column name (columns are where the dashes are)."""
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("-"))
    spans = [match.span() for match in re.finditer(r"-+", lines[rule])]
    header = [lines[rule - 1][start:end].strip() for start, end in spans]
    rows = []
    for line in lines[rule + 1 :]:
        if not line[:1].isspace() and not line[:1].isdigit():
            break
        rows.append(
            dict(zip(header, [line[start:end].strip() for start, end in spans], strict=True))
        )
    return rows


SMALL_RUN = ["--matches", "2", "--rounds", "1", "--game-target", "10", "--raw-seconds", "0.3"]


def test_loadtest_passes_with_no_errors_and_every_record_clean(
    fresh_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([*SMALL_RUN, "--database-url", fresh_database_url])

    out = capsys.readouterr().out
    assert status == 0, out
    (row,) = table_rows(out)
    assert (row["M"], row["matches"], row["errors"], row["records clean"]) == (
        "2",
        "2/2",
        "0",
        "2/2",
    ), out
    assert int(row["commands"]) > 0
    assert "PASS" in out


def test_loadtest_fails_when_requests_fail(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody_listens = f"http://127.0.0.1:{probe.getsockname()[1]}"

    status = main([*SMALL_RUN, "--url", nobody_listens])

    out = capsys.readouterr().out
    assert status == 1, out
    assert "create: ConnectError" in out
    assert "FAIL" in out


async def test_a_record_is_clean_only_when_whole_and_verified(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url))
    async with AsyncTestClient(app=app) as http:
        client = Client(http, Stats())
        match_id = await play_one(client, {"game_target": 10, "match_target": 0}, "records")
        assert match_id is not None
        finished = (await http.get(f"/matches/{match_id}/record")).content
        created = await client.call("create", "POST", "/matches", body={"options": {}})
        assert created is not None
        unfinished = (await http.get(f"/matches/{created['match_id']}/record")).content

    assert record_problem(finished) is None
    assert record_problem(unfinished) == "incomplete: status in_progress, 0 event(s) left out"
    document = msgspec.json.decode(finished)
    scored = next(e for e in document["match_stream"]["events"] if e["type"] == "scored")
    scored["data"] = scored["data"].replace('"points":', '"points":1')
    problem = record_problem(msgspec.json.encode(document))
    assert problem is not None
    assert f"version {scored['version']}" in problem
