"""Records of real matches played over the API: they verify clean, offline and from the command
line; every seat's view shows the same commitments and seeds; hand histories and replays read
the same events; entropy is only taken after the server has committed."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from cli.main import main
from service.audit.game_record import GameRecord, decode_record
from service.audit.verify import verify_file
from tests.api.players import Json
from tests.audit.api_play import ENTROPY, FairTable, create_fair_table, play_until, view_of

Client = AsyncTestClient[Litestar]
ONE_GAME = {"game_target": 50, "match_target": 0}


class Finished(msgspec.Struct):
    table: FairTable
    record: GameRecord
    text: bytes
    views: list[Json]


@pytest.fixture(scope="module")
async def finished(client: Client) -> Finished:
    table = await create_fair_table(client, **ONE_GAME)
    await play_until(client, table, random.Random(5))
    response = await client.get(f"{table.path}/record")
    assert response.status_code == 200, response.text
    views = [await view_of(client, table, seat) for seat in (0, 1)]
    return Finished(table, decode_record(response.content), response.content, views)


def test_a_match_played_over_the_api_verifies_clean_from_its_record_file(
    finished: Finished, tmp_path: Path
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(finished.text)

    verdict = verify_file(path)

    assert verdict.ok, verdict.problem
    record = finished.record
    assert record.status == "finished"
    assert record.events_left_out == 0
    assert record.fairness.commitments == [finished.table.commitment]
    assert record.fairness.entropy == ENTROPY
    assert record.fairness.secret is not None
    assert len(record.fairness.revealed) == record.hands_finished + 1


def test_gin_verify_exits_0_on_a_true_record_and_1_on_a_tampered_one(
    finished: Finished, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    true_copy = tmp_path / "true.json"
    true_copy.write_bytes(finished.text)
    gin = Path(sys.executable).with_name("gin")
    run = subprocess.run([gin, "verify", str(true_copy)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.endswith("VERIFIED: every check holds\n")
    assert " dealt; " in run.stdout

    doc = msgspec.json.decode(finished.text)
    doc["match_stream"]["events"].pop(10)
    forged = tmp_path / "forged.json"
    forged.write_bytes(msgspec.json.encode(doc))
    assert main(["verify", str(forged)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "DISCREPANCY: match stream: version 11 is missing (the record goes on with version 12)"
    )


def test_each_seat_view_shows_the_commitments_and_every_revealed_seed(
    finished: Finished,
) -> None:
    summary = msgspec.to_builtins(finished.record.fairness)
    for view in finished.views:
        assert view["fairness"] == summary


async def test_a_hand_history_has_a_line_per_action_in_card_notation_and_the_score(
    client: Client, finished: Finished
) -> None:
    response = await client.get(f"{finished.table.path}/hands/1/history")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    events = finished.record.match_stream.events
    dealt = msgspec.json.decode(next(e.data for e in events if e.type == "dealt"))
    end = next(i for i, e in enumerate(events) if e.type in ("scored", "hand_drawn"))
    start = next(i for i, e in enumerate(events) if e.type == "dealt")
    actions = [e for e in events[start + 1 : end + 1] if e.type not in ("scored", "hand_drawn")]
    actions = [e for e in actions if e.type not in ("game_won", "match_won")]

    assert f"Seat 0 is dealt: {' '.join(dealt['hands'][0])}" in text
    assert f"Seat 1 is dealt: {' '.join(dealt['hands'][1])}" in text
    assert f"Upcard: {dealt['upcard']}" in text
    numbered = [line for line in text.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    assert len(numbered) == len(actions)
    assert all(f"(version {e.version})" in line for e, line in zip(actions, numbered, strict=True))
    assert "Result: " in text
    assert finished.record.fairness.revealed[1].seed in text


async def test_replay_gives_the_complete_state_after_an_event(
    client: Client, finished: Finished
) -> None:
    events = finished.record.match_stream.events
    discard = next(e for e in events if e.type == "discarded")

    response = await client.get(f"{finished.table.path}/replay", params={"at": discard.version})

    assert response.status_code == 200, response.text
    state = response.json()
    assert state["kind"] == "two_players"
    assert state["version"] == discard.version
    assert state["event"] == msgspec.json.decode(discard.data)
    assert state["event"]["card"] == state["discard_pile"][-1]
    cards = [*state["hands"][0], *state["hands"][1], *state["stock"], *state["discard_pile"]]
    assert len(set(cards)) == len(cards) == 52
    assert len(state["hands"][1 - state["turn"]]) == 10


async def test_entropy_sent_before_the_server_commits_is_refused(client: Client) -> None:
    response = await client.post("/matches", json={"entropy": ["my dice"]})

    assert response.status_code == 422
    assert response.json()["type"] == "/problems/entropy-before-commitment"


async def test_a_commitment_serves_one_match(client: Client) -> None:
    commitment = (await client.post("/commitments")).json()["commitment"]
    body = {"entropy": ["a", "b"], "commitment": commitment}
    assert (await client.post("/matches", json=body)).status_code == 201

    again = await client.post("/matches", json=body)

    assert again.status_code == 422
    assert again.json()["type"] == "/problems/unknown-commitment"
