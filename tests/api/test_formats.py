"""What only three- and four-player matches have over HTTP: seats invited by number, and the
requests a match of several tables refuses. What every table size shares (creation, bots,
the summary, events, ETags) is tested at every size in test_matches.py and test_events.py;
``create`` and ``play_out`` here serve other tests."""

from __future__ import annotations

import random
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import Json, bearer, choose

Client = AsyncTestClient[Litestar]
QUICK_MATCH = {"game_target": 10, "match_target": 0}


async def create(client: Client, **body: Any) -> Json:
    response = await client.post("/matches", json={"options": QUICK_MATCH, **body})
    assert response.status_code == 201, response.text
    created: Json = response.json()
    return created


async def play_out(
    client: Client, match_id: str, tokens: dict[int, str], seed: int
) -> dict[int, Json]:
    """Random legal moves by whichever seats have any, until the match is over."""
    rng = random.Random(seed)
    path = f"/matches/{match_id}"
    for _ in range(5_000):
        views = {
            seat: (await client.get(f"{path}/view", headers=bearer(token))).json()
            for seat, token in tokens.items()
        }
        if all(v["phase"] == "match_over" for v in views.values()):
            return views
        movers = [seat for seat, v in views.items() if v["legal_actions"]]
        assert movers, views
        seat = rng.choice(movers)
        command = choose(views[seat], rng)
        response = await client.post(f"{path}/commands", json=command, headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.text
    raise AssertionError("the match did not end")


async def test_invited_seats_join_and_the_cut_waits_for_the_last(client: Client) -> None:
    created = await create(client, players=3, invite_seats=[1, 2])
    assert [seat["seat"] for seat in created["seats"]] == [0]
    codes = {invite["seat"]: invite["invite_code"] for invite in created["invites"]}
    path = f"/matches/{created['match_id']}"
    token0 = created["seats"][0]["token"]
    assert (await client.get(f"{path}/view", headers=bearer(token0))).json()["phase"] == "cut"
    tokens = {0: token0}
    for seat, code in codes.items():
        joined = await client.post("/matches/join", json={"invite_code": code})
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == seat
        tokens[seat] = joined.json()["token"]
    view = (await client.get(f"{path}/view", headers=bearer(token0))).json()
    assert view["phase"] == "play"
    assert view["cut"] is not None


async def test_bad_format_requests_are_refused_with_problems(client: Client) -> None:
    for body in (
        {"players": 5},
        {"players": 3, "invite_seats": [3]},
        {"players": 3, "invite_seats": [1, 1]},
        {"players": 3, "bots": ["random", "random", "random"]},
        {"players": 4, "bots": ["random", None, None, None], "invite_seats": [0]},
    ):
        response = await client.post("/matches", json=body)
        assert 400 <= response.status_code < 500, (body, response.text)
        assert response.headers["content-type"] == "application/problem+json"
    created = await create(client, players=3)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    view = (await client.get(f"{path}/view", headers=bearer(tokens[0]))).json()
    sitter = view["sitting_out"]
    response = await client.post(
        f"{path}/commands", json={"type": "draw_from_stock"}, headers=bearer(tokens[sitter])
    )
    assert response.status_code == 422, response.text
    assert response.json()["type"] == "/problems/not-your-turn"


@pytest.mark.parametrize("players", [3, 4])
async def test_each_table_s_view_has_the_match_s_options_with_a_game_its_hand_never_ends(
    client: Client, players: int
) -> None:
    created = await create(client, players=players)
    token = created["seats"][0]["token"]
    view = (await client.get(f"/matches/{created['match_id']}/view", headers=bearer(token))).json()

    assert len(view["tables"]) == players - 2
    never_ended = {**view["options"], "game_target": 10_000, "match_target": 0}
    assert [table["view"]["options"] for table in view["tables"]] == [never_ended] * (players - 2)
