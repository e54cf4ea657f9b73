"""Creating matches (every seat, or by invite, or beside the server's bots), the public summary,
ETags, health and the docs."""

from __future__ import annotations

import random

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.any_size import EVERY_SIZE, create_at, play_one, play_out, views
from tests.api.players import Table, bearer, play_match
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def test_a_new_match_gives_each_seat_a_token_and_applies_the_options(
    client: Client,
) -> None:
    response = await client.post(
        "/matches",
        json={"options": {"knock_limit": 7, "oklahoma": True}},
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert [seat["seat"] for seat in body["seats"]] == [0, 1]
    assert body["invite_code"] is None
    table = Table(body["match_id"], {s["seat"]: s["token"] for s in body["seats"]})
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    assert view["options"]["knock_limit"] == 7
    assert view["options"]["oklahoma"] is True
    # The cut is made at creation, so the winner of the cut may choose the dealer at once.
    assert view["phase"] == "choose_dealer"
    summary = (await client.get(table.path)).json()
    assert summary["status"] == "in_progress"


async def test_an_invited_player_joins_with_the_code_and_the_match_starts(
    client: Client,
) -> None:
    # A short match: the test plays it to its end.
    body = {"invite": True, "seat": 1, "options": {"game_target": 10, "match_target": 0}}
    response = await client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert [seat["seat"] for seat in created["seats"]] == [1]
    path, host = f"/matches/{created['match_id']}", bearer(created["seats"][0]["token"])

    waiting = (await client.get(path)).json()
    assert waiting["status"] == "waiting_for_opponent"
    assert [p["joined"] for p in waiting["players"]] == [False, True]
    view = (await client.get(f"{path}/view", headers=host)).json()
    assert view["legal_actions"] == []
    refused = await client.post(f"{path}/commands", json={"type": "pass_upcard"}, headers=host)
    assert_problem(refused, 409, "waiting-for-opponent")

    joined = await client.post("/matches/join", json={"invite_code": created["invite_code"]})
    assert joined.status_code == 201, joined.text
    guest = joined.json()
    assert guest["match_id"] == created["match_id"]
    assert guest["seat"] == 0
    assert (await client.get(path)).json()["status"] == "in_progress"

    table = Table(created["match_id"], {1: created["seats"][0]["token"], 0: guest["token"]})
    final = await play_match(client, table, random.Random(2))
    assert final["phase"] == "match_over"


async def test_an_invite_code_seats_one_player_only(client: Client) -> None:
    created = (await client.post("/matches", json={"invite": True})).json()
    code = created["invite_code"]
    assert (await client.post("/matches/join", json={"invite_code": code})).status_code == 201
    again = await client.post("/matches/join", json={"invite_code": code})
    assert_problem(again, 404, "invite-not-found")
    made_up = await client.post("/matches/join", json={"invite_code": "inv_nothing"})
    assert_problem(made_up, 404, "invite-not-found")


@EVERY_SIZE
async def test_the_summary_tells_status_scores_and_every_finished_hand(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats)
    assert sorted(table.tokens) == list(range(seats))
    await play_out(client, table, random.Random(4))
    final = await views(client, table)
    winner = final[0]["winner"]
    assert {view["winner"] for view in final.values()} == {winner}
    summary = (await client.get(table.path)).json()
    assert summary["status"] == "finished"
    assert summary["winner"] == winner
    assert summary["version"] == final[0]["version"]
    assert summary["table"]["scores"] == final[0]["scores"]
    assert len(summary["hands"]) >= 1
    assert len(summary["games"]) == 1
    assert summary["games"][0]["winner"] == winner
    if seats == 2:
        assert {hand["type"] for hand in summary["hands"]} <= {"scored", "hand_drawn"}
        return
    # A hand is its table's: the match seats at it, its end in the table's own words.
    assert summary["table"]["players"] == seats
    assert {hand["type"] for hand in summary["hands"]} == {"table_event"}
    assert {hand["event"]["type"] for hand in summary["hands"]} <= {"scored", "hand_drawn"}
    assert summary["games"][0]["settlements"][0]["sides"] == [0, 1]
    assert summary["rounds"]


@EVERY_SIZE
async def test_the_servers_bots_answer_the_one_person_in_the_match(
    client: Client, seats: int
) -> None:
    person = seats - 1
    bots = [*["random", "simple", "random"][: seats - 1], None]
    table = await create_at(client, seats, bots=bots)
    assert list(table.tokens) == [person]
    await play_out(client, table, random.Random(4))
    final = (await views(client, table))[person]
    assert final["phase"] == "match_over"
    if seats == 4:
        assert final["teams"] == [[0, 2], [1, 3]]


@EVERY_SIZE
async def test_a_stale_if_match_is_refused_and_changes_nothing(client: Client, seats: int) -> None:
    table = await create_at(client, seats)
    for seat in table.tokens:
        response = await client.get(f"{table.path}/view", headers=table.headers(seat))
        etag, version = response.headers["etag"], response.json()["version"]
        assert etag == f'"v{version}-s{seat}"'
        stale = etag.replace(f"v{version}-", f"v{version - 1}-")
        response = await client.post(
            f"{table.path}/commands",
            json={"type": "draw_from_stock"},
            headers={**table.headers(seat), "If-Match": stale},
        )
        assert response.status_code == 412, response.text
        assert response.json()["type"] == "/problems/stale-version"
        after = (await client.get(f"{table.path}/view", headers=table.headers(seat))).json()
        assert after["version"] == version, "a refused command changed the match"


async def test_health_reports_the_database(client: Client) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


async def test_the_openapi_document_and_the_docs_page_are_served(client: Client) -> None:
    document = (await client.get("/docs/openapi.json")).json()
    assert {
        "/matches",
        "/matches/join",
        "/matches/{match_id}",
        "/matches/{match_id}/view",
        "/matches/{match_id}/commands",
        "/matches/{match_id}/events",
        "/matches/{match_id}/stream",
        "/health",
    } <= set(document["paths"])
    page = await client.get("/docs")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]


@EVERY_SIZE
async def test_a_view_has_an_etag_and_an_unchanged_view_is_not_sent_again(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats)
    first = await client.get(f"{table.path}/view", headers=table.headers(1))
    etag = first.headers["etag"]
    assert etag == f'"v{first.json()["version"]}-s1"'
    again = await client.get(
        f"{table.path}/view", headers={**table.headers(1), "If-None-Match": etag}
    )
    assert again.status_code == 304
    assert again.headers["etag"] == etag
    # Once the match has moved on, the same tag gets the new view.
    await play_one(client, table, random.Random(seats))
    moved = await client.get(
        f"{table.path}/view", headers={**table.headers(1), "If-None-Match": etag}
    )
    assert moved.status_code == 200
    assert moved.headers["etag"] == f'"v{moved.json()["version"]}-s1"' != etag
