"""Rounds of every table size: an operator asks for matches of two, three or four seats
(``players``), one external player id and bot per seat at most; refused rounds make nothing."""

from __future__ import annotations

import uuid

import pytest

from service.tournament.operators import OperatorKeys
from tests.api.any_size import EVERY_SIZE, QUICK
from tests.tournament.conftest import new_key
from tests.tournament.operator_seats import operator_refs
from tests.tournament.play import Client, Json, bearer


def table_round(seats: int, prefix: str, count: int = 3) -> Json:
    return {
        "options": QUICK,
        "matches": [
            {
                "external_ref": f"{prefix}-{n}",
                "players": seats,
                "external_player_ids": [f"{prefix}-p{n}-{s}" for s in range(seats)],
            }
            for n in range(count)
        ],
    }


async def operator(keys: OperatorKeys) -> str:
    return await new_key(keys, f"Tables {uuid.uuid4()}", "matches:create", "matches:read")


@EVERY_SIZE
async def test_a_round_makes_matches_of_the_seats_asked_once_per_key(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await operator(keys)
    body = table_round(seats, f"t{seats}")
    headers = {**bearer(key), "Idempotency-Key": f"round-{seats}"}

    first = await client.post("/rounds", json=body, headers=headers)
    again = await client.post("/rounds", json=body, headers=headers)

    assert first.status_code == again.status_code == 201, first.text
    assert first.content == again.content
    made = first.json()
    for n, match in enumerate(made["matches"]):
        summary = (await client.get(f"/matches/{match['match_id']}")).json()
        ids = [p["external_player_id"] for p in summary["players"]]
        assert ids == body["matches"][n]["external_player_ids"]
        assert [s["seat"] for s in match["seats"]] == list(range(seats))
        for seat in match["seats"]:
            view = await client.get(
                f"/matches/{match['match_id']}/view", headers=bearer(seat["token"])
            )
            assert view.status_code == 200, view.text
            assert view.json()["seat"] == seat["seat"]
    results = (await client.get(f"/rounds/{made['round_id']}", headers=bearer(key))).json()
    assert [[p["external_player_id"] for p in m["players"]] for m in results["matches"]] == [
        m["external_player_ids"] for m in body["matches"]
    ]
    other = {**body, "options": {**QUICK, "game_target": 20}}
    refused = await client.post("/rounds", json=other, headers=headers)
    assert (refused.status_code, refused.json()["type"]) == (
        422,
        "/problems/idempotency-key-reused",
    )


async def test_one_round_may_mix_table_sizes(client: Client, keys: OperatorKeys) -> None:
    key = await operator(keys)
    body = {
        "options": QUICK,
        "matches": [
            {"external_ref": f"mix-{seats}", "players": seats, "bots": [None, "random"]}
            for seats in (4, 2, 3)
        ],
    }

    response = await client.post("/rounds", json=body, headers=bearer(key))

    assert response.status_code == 201, response.text
    made = response.json()["matches"]
    assert [m["external_ref"] for m in made] == ["mix-4", "mix-2", "mix-3"]
    for match, seats in zip(made, (4, 2, 3), strict=True):
        summary = (await client.get(f"/matches/{match['match_id']}")).json()
        assert len(summary["players"]) == seats
        assert [p["bot"] for p in summary["players"]][:2] == [None, "random"]
        assert [s["seat"] for s in match["seats"]] == [s for s in range(seats) if s != 1]


@EVERY_SIZE
@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"external_player_ids": ["a", "b", "c", "d", "e"]}, None),
        ("one id too many", "/problems/invalid-round"),
        ("one bot too many", "/problems/invalid-round"),
        ("bots on every seat", "/problems/invalid-bot-seats"),
        ({"players": 5}, None),
    ],
    ids=["five ids", "ids", "bots", "all bots", "five players"],
)
async def test_a_round_with_one_match_refused_creates_nothing(
    client: Client, keys: OperatorKeys, seats: int, change: Json | str, problem: str | None
) -> None:
    key = await operator(keys)
    prefix = f"bad-{uuid.uuid4().hex[:8]}"
    body = table_round(seats, prefix, count=4)
    bad = body["matches"][2]
    if change == "one id too many":
        bad["external_player_ids"] = [*bad["external_player_ids"], "extra"]
    elif change == "one bot too many":
        bad["bots"] = [None] * (seats + 1)
    elif change == "bots on every seat":
        bad["bots"] = ["random"] * seats
    else:
        assert isinstance(change, dict)
        bad.update(change)

    response = await client.post("/rounds", json=body, headers=bearer(key))

    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"] == "application/problem+json"
    if seats == 4 and change in ("one id too many", "one bot too many"):
        problem = None  # five of them: the body's shape is refused before the round is read
    if problem is not None:
        assert (response.status_code, response.json()["type"]) == (422, problem)
    assert await operator_refs(client, key, prefix) == []
