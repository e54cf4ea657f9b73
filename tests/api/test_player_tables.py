"""A player's matches at every table size over HTTP: made with bots or open seats, invites
naming a player for each seat, and a rematch of the same table."""

from __future__ import annotations

import random

from tests.api.accounts import inbox, sign_up
from tests.api.any_size import EVERY_SIZE, QUICK, play_out, views
from tests.api.conftest import Asgi
from tests.api.players import Table, bearer


@EVERY_SIZE
async def test_a_player_plays_a_match_of_any_size_against_bots(asgi: Asgi, seats: int) -> None:
    player = await sign_up(asgi.client, "Solo")
    made = await asgi.client.post(
        "/players/me/matches",
        json={"options": QUICK, "players": seats, "bot": "random"},
        headers=bearer(player["credential"]),
    )
    assert made.status_code == 201, made.text
    created = made.json()
    assert (created["invite_code"], created["invites"]) == (None, [])
    table = Table(created["match_id"], {0: player["credential"]})

    await play_out(asgi.client, table, random.Random(seats))

    (view,) = (await views(asgi.client, table)).values()
    assert view["phase"] == "match_over"
    summary = await asgi.client.get(table.path)
    assert summary.status_code == 200, summary.text
    assert [p["bot"] for p in summary.json()["players"]] == [None, *["random"] * (seats - 1)]


@EVERY_SIZE
async def test_an_invite_names_a_player_for_each_seat_and_a_rematch_asks_them_again(
    asgi: Asgi, seats: int
) -> None:
    host = await sign_up(asgi.client, "Host")
    guests = [await sign_up(asgi.client, f"Guest {seat}") for seat in range(1, seats)]
    made = await asgi.client.post(
        "/players/me/invites",
        json={
            "options": QUICK,
            "players": seats,
            "to_player_ids": [guest["player_id"] for guest in guests],
        },
        headers=bearer(host["credential"]),
    )
    assert made.status_code == 201, made.text
    invites = made.json()["invites"]
    assert [(i["seat"], i["to_player_id"]) for i in invites] == [
        (seat, guest["player_id"]) for seat, guest in enumerate(guests, 1)
    ]
    credentials = {0: host["credential"]}
    for invite, guest in zip(invites, guests, strict=True):
        (received,) = await inbox(asgi.app, guest["credential"], 1)
        assert received["data"]["invite_code"] == invite["invite_code"]
        assert received["data"]["seat"] == invite["seat"]
        joined = await asgi.client.post(
            "/players/me/join",
            json={"invite_code": invite["invite_code"]},
            headers=bearer(guest["credential"]),
        )
        assert joined.status_code == 201, joined.text
        credentials[invite["seat"]] = guest["credential"]
    match_id = made.json()["match_id"]
    await play_out(asgi.client, Table(match_id, credentials), random.Random(seats))

    rematch = await asgi.client.post(
        f"/players/me/matches/{match_id}/rematch", headers=bearer(guests[0]["credential"])
    )

    assert rematch.status_code == 201, rematch.text
    offer = rematch.json()
    assert offer["rematch_of"] == match_id
    others = [host, *guests[1:]]
    assert [(i["seat"], i["to_player_id"]) for i in offer["invites"]] == [
        (seat, player["player_id"]) for seat, player in enumerate(others, 1)
    ]
    summary = await asgi.client.get(f"/matches/{offer['match_id']}")
    assert len(summary.json()["players"]) == seats


@EVERY_SIZE
async def test_an_invite_that_does_not_fit_its_table_is_refused(asgi: Asgi, seats: int) -> None:
    host = await sign_up(asgi.client, "Host")
    guest = await sign_up(asgi.client, "Guest")
    for body in (
        {"players": seats, "to_player_ids": [None] * seats},
        {"players": seats, "to_player_ids": [guest["player_id"]] * 2},
        {"to_player_id": guest["player_id"], "to_player_ids": [guest["player_id"]]},
    ):
        refused = await asgi.client.post(
            "/players/me/invites", json=body, headers=bearer(host["credential"])
        )
        assert refused.status_code in (400, 422), (body, refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
    listed = await asgi.client.get("/players/me/matches", headers=bearer(host["credential"]))
    assert listed.json()["matches"] == [], "a refused invite makes no match"


@EVERY_SIZE
async def test_quick_match_fills_a_table_of_the_size_asked_for(asgi: Asgi, seats: int) -> None:
    players = [await sign_up(asgi.client, f"Quick {seat}") for seat in range(seats)]
    other_size = await sign_up(asgi.client, "Other size")
    path = "/players/me/quick-match"
    ask = {"options": {"game_target": 70 + seats}, "players": seats}
    elsewhere = {**ask, "players": 2 if seats != 2 else 3}
    waiting = await asgi.client.post(path, json=elsewhere, headers=bearer(other_size["credential"]))
    assert waiting.json()["status"] == "waiting"
    for player in players[:-1]:
        answer = await asgi.client.post(path, json=ask, headers=bearer(player["credential"]))
        assert answer.json()["status"] == "waiting", answer.text

    paired = await asgi.client.post(path, json=ask, headers=bearer(players[-1]["credential"]))

    assert (paired.json()["status"], paired.json()["seat"]) == ("paired", seats - 1)
    match_id = paired.json()["match_id"]
    for seat, player in enumerate(players):
        status = (await asgi.client.get(path, headers=bearer(player["credential"]))).json()
        assert (status["match_id"], status["seat"]) == (match_id, seat)
        (started,) = await inbox(asgi.app, player["credential"], 1)
        assert started["data"] == {"kind": "match_started", "match_id": match_id, "seat": seat}
    summary = (await asgi.client.get(f"/matches/{match_id}")).json()
    assert len(summary["players"]) == seats
    assert summary["status"] == "in_progress"
    still = await asgi.client.get(path, headers=bearer(other_size["credential"]))
    assert still.json()["status"] == "waiting"
