"""Three- and four-player matches over HTTP: creation with tokens, invites and bots, views,
commands, events and the public summary, each through the same endpoints as two players."""

from __future__ import annotations

import random
from typing import Any

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


async def test_a_three_player_match_is_played_to_its_end_over_http(client: Client) -> None:
    created = await create(client, players=3)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    assert sorted(tokens) == [0, 1, 2]
    views = await play_out(client, created["match_id"], tokens, seed=3)
    assert {v["winner"] for v in views.values()} == {views[0]["winner"]}
    summary = (await client.get(f"/matches/{created['match_id']}")).json()
    assert summary["status"] == "finished"
    assert summary["table"]["players"] == 3
    assert summary["games"][0]["settlements"][0]["sides"] == [0, 1]
    assert summary["rounds"]


async def test_a_four_player_match_with_three_bots_answers_the_person(client: Client) -> None:
    created = await create(client, players=4, bots=["random", None, "simple", "random"])
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    assert list(tokens) == [1]
    views = await play_out(client, created["match_id"], tokens, seed=4)
    assert views[1]["phase"] == "match_over"
    assert views[1]["teams"] == [[0, 2], [1, 3]]


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


async def test_a_seat_sees_its_own_hand_and_only_public_events(client: Client) -> None:
    created = await create(client, players=4)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    for seat, token in tokens.items():
        view = (await client.get(f"{path}/view", headers=bearer(token))).json()
        assert len(view["hand"]) == 10
        events = (await client.get(f"{path}/events", headers=bearer(token))).json()["events"]
        deals = [e["event"] for e in events if e["event"]["type"] == "table_event"]
        assert len(deals) == 2
        for deal in deals:
            own = deal["seats"].index(seat) if seat in deal["seats"] else None
            for table_seat, cards in enumerate(deal["event"]["hands"]):
                assert (cards != []) == (table_seat == own)
            assert deal["event"]["stock"] == []


async def test_bad_format_requests_are_refused_with_problems(client: Client) -> None:
    for body in (
        {"players": 5},
        {"players": 3, "invite_seats": [3]},
        {"players": 3, "invite_seats": [1, 1]},
        {"players": 3, "bots": ["random", "random", "random"]},
        {"players": 4, "bots": ["random", None, None, None], "invite_seats": [0]},
        {"players": 3, "invite": True},
        {"invite_seats": [1]},
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


async def test_a_stale_if_match_is_refused_as_in_a_two_player_match(client: Client) -> None:
    created = await create(client, players=4)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    for seat, token in tokens.items():
        response = await client.get(f"{path}/view", headers=bearer(token))
        etag, version = response.headers["etag"], response.json()["version"]
        assert etag == f'"v{version}-s{seat}"'
        stale = etag.replace(f"v{version}-", f"v{version - 1}-")
        response = await client.post(
            f"{path}/commands",
            json={"type": "draw_from_stock"},
            headers={**bearer(token), "If-Match": stale},
        )
        assert response.status_code == 412, response.text
        assert response.json()["type"] == "/problems/stale-version"
        after = (await client.get(f"{path}/view", headers=bearer(token))).json()
        assert after["version"] == version, "a refused command changed the match"
