"""Rounds: a batch of matches in one request, all or none, once per Idempotency-Key, with
shared options and clock start, and the round's results in one call."""

from __future__ import annotations

import uuid

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.operator_seats import operator_refs
from tests.tournament.play import SHORT_MATCH, Client, Json, Table, bearer, play_commands

START = "2030-01-01T18:00:00Z"


def round_of(count: int, prefix: str, start: str | None = START) -> Json:
    """A round to start at ``start``: no move is taken before it (None: at once)."""
    return {
        "options": SHORT_MATCH,
        "clocks_start_at": start,
        "matches": [
            {"external_ref": f"{prefix}-{n}", "external_player_ids": [f"p{2 * n}", f"p{2 * n + 1}"]}
            for n in range(count)
        ],
    }


async def test_a_round_of_64_sent_twice_with_one_key_is_created_once(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Swiss {uuid.uuid4()}", "matches:create", "matches:read")
    headers = {**bearer(key), "Idempotency-Key": "round-1"}
    body = round_of(64, "r1")

    first = await client.post("/rounds", json=body, headers=headers)
    second = await client.post("/rounds", json=body, headers=headers)

    assert first.status_code == second.status_code == 201, first.text
    assert first.json() == second.json()
    made = first.json()
    assert made["clocks_start_at"] == START
    assert [m["external_ref"] for m in made["matches"]] == [f"r1-{n}" for n in range(64)]
    assert sorted(await operator_refs(client, key, "r1-")) == sorted(f"r1-{n}" for n in range(64))
    view = await client.get(
        f"/matches/{made['matches'][63]['match_id']}/view",
        headers=bearer(made["matches"][63]["seats"][1]["token"]),
    )
    assert view.status_code == 200


async def test_a_round_with_one_taken_external_ref_creates_nothing(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Taken {uuid.uuid4()}", "matches:create", "matches:read")
    await client.post("/matches", json={"external_ref": "t-5"}, headers=bearer(key))

    refused = await client.post("/rounds", json=round_of(8, "t"), headers=bearer(key))

    assert refused.status_code == 409
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["type"] == "/problems/external-ref-taken"
    assert await operator_refs(client, key, "t-") == ["t-5"]


async def test_a_round_with_one_invalid_match_creates_nothing(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Invalid {uuid.uuid4()}", "matches:create", "matches:read")
    repeated = round_of(4, "dup")
    repeated["matches"][3]["external_ref"] = "dup-0"
    all_bots = round_of(4, "bots")
    all_bots["matches"][2]["bots"] = ["random", "random"]

    twice = await client.post("/rounds", json=repeated, headers=bearer(key))
    bots = await client.post("/rounds", json=all_bots, headers=bearer(key))

    assert (twice.status_code, twice.json()["type"]) == (422, "/problems/invalid-round")
    assert (bots.status_code, bots.json()["type"]) == (422, "/problems/invalid-bot-seats")
    assert await operator_refs(client, key, "") == []


async def test_a_rounds_results_come_in_one_call_for_its_operator_only(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Results {uuid.uuid4()}", "matches:create", "matches:read")
    other = await new_key(keys, f"Results other {uuid.uuid4()}", "matches:read")
    asked = round_of(2, "res", start=None)
    made = (await client.post("/rounds", json=asked, headers=bearer(key))).json()
    first = made["matches"][0]
    final = await play_commands(
        client, Table(first["match_id"], {s["seat"]: s["token"] for s in first["seats"]})
    )

    results = await client.get(f"/rounds/{made['round_id']}", headers=bearer(key))
    hidden = await client.get(f"/rounds/{made['round_id']}", headers=bearer(other))

    assert results.status_code == 200, results.text
    body = results.json()
    assert body["clocks_start_at"] is None
    assert [m["status"] for m in body["matches"]] == ["finished", "in_progress"]
    assert body["matches"][0]["winner"] == final["winner"]
    assert body["matches"][0]["winner_external_player_id"] == f"p{final['winner']}"
    assert (hidden.status_code, hidden.json()["type"]) == (404, "/problems/round-not-found")
