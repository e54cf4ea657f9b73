"""Players over HTTP: signing up, credentials, playing with a credential, "my matches" and the
inbox, and every refusal a problem of its own that changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.api.accounts import inbox, my_matches, pair, sign_up, until
from tests.api.conftest import Asgi
from tests.api.players import ONE_GAME, bearer
from tests.api.problems import assert_problem


async def test_sign_up_shows_the_credential_once_and_it_names_the_player(asgi: Asgi) -> None:
    player = await sign_up(asgi.client, "  Ada\u0301 ")  # trimmed, and NFC makes one "á"
    assert player["display_name"] == "Ad\u00e1"
    assert player["credential"].startswith("gpc_")
    me = await asgi.client.get("/players/me", headers=bearer(player["credential"]))
    assert me.status_code == 200
    assert me.json()["player_id"] == player["player_id"]
    assert "credential" not in me.text
    assert player["credential"] not in me.text


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("x" * 10_000, "display-name-too-long"),
        ("x" * 33, "display-name-too-long"),
        ("Ada\x00", "invalid-display-name"),
        ("Ada\u202egro", "invalid-display-name"),  # a bidirectional override
        ("line\nbreak", "invalid-display-name"),
        ("   ", "invalid-display-name"),
    ],
)
async def test_a_name_that_cannot_be_one_is_refused_and_no_player_is_made(
    asgi: Asgi, name: str, kind: str
) -> None:
    response = await asgi.client.post("/players", json={"display_name": name})
    assert_problem(response, 422, kind)
    assert "credential" not in response.text


async def test_rotating_the_credential_retires_the_old_one_and_keeps_the_matches(
    asgi: Asgi,
) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    match_id = await pair(asgi.client, host, guest)
    rotated = await asgi.client.post("/players/me/credential", headers=bearer(host["credential"]))
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()["credential"]
    assert fresh != host["credential"]
    old = await asgi.client.get("/players/me", headers=bearer(host["credential"]))
    assert_problem(old, 401, "wrong-credential")
    view = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(fresh))
    assert view.status_code == 200, view.text
    assert view.json()["seat"] == 0
    stale = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(host["credential"]))
    assert_problem(stale, 403, "wrong-token")


@pytest.mark.parametrize(
    ("headers", "status", "kind"),
    [
        ({}, 401, "missing-credential"),
        (bearer("gpc_" + "x" * 43), 401, "wrong-credential"),
        (bearer("gin_not-a-player"), 401, "wrong-credential"),
    ],
)
async def test_no_credential_or_a_wrong_one_is_refused(
    asgi: Asgi, headers: dict[str, str], status: int, kind: str
) -> None:
    for method, path in [
        ("GET", "/players/me"),
        ("GET", "/players/me/matches"),
        ("GET", "/players/me/inbox"),
        ("POST", "/players/me/credential"),
        ("POST", "/players/me/matches"),
    ]:
        body: Any = {} if method == "POST" else None
        response = await asgi.client.request(method, path, headers=headers, json=body)
        assert_problem(response, status, kind)


async def test_a_players_credential_opens_their_seat_and_no_other(asgi: Asgi) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    stranger = await sign_up(asgi.client, "Stranger")
    match_id = await pair(asgi.client, host, guest)
    for player, seat in [(host, 0), (guest, 1)]:
        view = await asgi.client.get(
            f"/matches/{match_id}/view", headers=bearer(player["credential"])
        )
        assert view.json()["seat"] == seat
    refused = await asgi.client.get(
        f"/matches/{match_id}/view", headers=bearer(stranger["credential"])
    )
    assert_problem(refused, 403, "wrong-token")
    summary = (await asgi.client.get(f"/matches/{match_id}")).json()
    assert [p.get("display_name") for p in summary["players"]] == ["Host", "Guest"]
    assert host["credential"] not in str(summary)
    assert guest["credential"] not in str(summary)


async def test_my_matches_lists_waiting_in_play_and_whose_turn(asgi: Asgi) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    waiting = await asgi.client.post(
        "/players/me/matches", json={}, headers=bearer(host["credential"])
    )
    match_id = await pair(asgi.client, host, guest)

    async def both_listed() -> Any:
        listed = await my_matches(asgi.client, host)
        statuses = {m["match_id"]: m["status"] for m in listed["matches"]}
        started = statuses.get(match_id) == "in_progress"
        return listed if started and len(statuses) == 2 else None

    listed = await until(both_listed)
    by_id = {m["match_id"]: m for m in listed["matches"]}
    assert by_id[waiting.json()["match_id"]]["status"] == "waiting"
    playing = by_id[match_id]
    assert playing["deadline"] is None

    async def both_at_one_version() -> Any:
        # The match may move on (the deal follows the cut) between reading the two lists.
        hosts = {m["match_id"]: m for m in (await my_matches(asgi.client, host))["matches"]}
        guests = (await my_matches(asgi.client, guest))["matches"]
        same = guests and guests[0]["version"] == hosts[match_id]["version"]
        return {"host": hosts[match_id], "guests": guests} if same else None

    both = await until(both_at_one_version)
    playing, guests = both["host"], both["guests"]
    assert [m["match_id"] for m in guests] == [match_id]
    to_move = playing["turn"]
    assert playing["your_turn"] == (to_move == 0)
    assert guests[0]["your_turn"] == (to_move == 1)


async def test_my_matches_shows_the_deadline_of_a_clocked_match(asgi: Asgi) -> None:
    host, guest = await sign_up(asgi.client, "Clocked"), await sign_up(asgi.client, "Rival")
    match_id = await pair(asgi.client, host, guest, {**ONE_GAME, "turn_seconds": 3600})
    view = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(host["credential"]))
    assert view.status_code == 200, view.text
    clock = view.json()["clock"]
    assert clock["seat"] is not None

    async def listed_as_viewed() -> Any:
        listed = (await my_matches(asgi.client, host))["matches"]
        caught_up = listed and listed[0]["version"] == view.json()["version"]
        return listed[0] if caught_up else None

    listed = await until(listed_as_viewed)
    # The same instant as the seat's view shows, given absolute (in UTC).
    shown = datetime.fromisoformat(listed["deadline"])
    assert shown.utcoffset() == timedelta(0)
    assert shown == datetime.fromisoformat(clock["due_at"])

    # Once the match is over, nobody has a decision to make: no deadline.
    resigned = await asgi.client.post(
        f"/matches/{match_id}/commands", json={"type": "resign"}, headers=bearer(host["credential"])
    )
    assert resigned.status_code == 200, resigned.text

    async def listed_finished() -> Any:
        listed = (await my_matches(asgi.client, guest))["matches"]
        return listed[0] if listed and listed[0]["status"] == "finished" else None

    assert (await until(listed_finished))["deadline"] is None


async def test_the_view_and_the_record_name_the_seats_player_accounts_hold(asgi: Asgi) -> None:
    host = await sign_up(asgi.client, "Hôst")
    created = await asgi.client.post(
        "/players/me/matches", json={"bot": "simple"}, headers=bearer(host["credential"])
    )
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    view = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(host["credential"]))
    assert view.json()["display_names"] == ["Hôst", None]  # the bot's seat is nobody's
    record = await asgi.client.get(f"/matches/{match_id}/record")
    assert record.status_code == 200, record.text
    assert [s["display_name"] for s in record.json()["seats"]] == ["Hôst", None]
    seat_token = created.json()["seats"][0]["token"]
    for text in (view.text, record.text):
        assert host["credential"] not in text
        assert seat_token not in text


async def test_my_matches_comes_in_pages(asgi: Asgi) -> None:
    host = await sign_up(asgi.client, "Pages")
    made = []
    for _ in range(5):
        response = await asgi.client.post(
            "/players/me/matches", json={}, headers=bearer(host["credential"])
        )
        made.append(response.json()["match_id"])

    async def all_listed() -> Any:
        return len((await my_matches(asgi.client, host, limit=100))["matches"]) == 5

    await until(all_listed)
    first = await my_matches(asgi.client, host, limit=3)
    second = await my_matches(asgi.client, host, limit=3, before=first["next"])
    assert second["next"] is None
    seen = [m["match_id"] for m in first["matches"] + second["matches"]]
    assert seen == made[::-1]


async def test_the_inbox_tells_each_player_of_the_start_and_whose_turn(asgi: Asgi) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    match_id = await pair(asgi.client, host, guest)
    hosts = await inbox(asgi.app, host["credential"], 1)
    guests = await inbox(asgi.app, guest["credential"], 1)
    assert hosts[0]["event"] == guests[0]["event"] == "match_started"
    assert hosts[0]["data"] == {"kind": "match_started", "match_id": match_id, "seat": 0}
    assert hosts[0]["id"] == 1

    async def turn_listed() -> Any:
        # The projector lags the commits: the list may not know whose turn it is yet.
        listed = (await my_matches(asgi.client, host))["matches"]
        return listed[0] if listed and listed[0]["turn"] is not None else None

    listed = await until(turn_listed)
    to_move = guest if listed["turn"] == 1 else host
    turn = await inbox(asgi.app, to_move["credential"], 1, last_event_id=1)
    assert turn[0]["event"] == "your_turn"
    assert turn[0]["id"] == 2


async def test_quick_match_pairs_two_players_and_refuses_asking_twice(asgi: Asgi) -> None:
    first, second = await sign_up(asgi.client, "First"), await sign_up(asgi.client, "Second")
    options = {"options": {"game_target": 77}}
    path = "/players/me/quick-match"
    waiting = await asgi.client.post(path, json=options, headers=bearer(first["credential"]))
    assert waiting.json()["status"] == "waiting"
    again = await asgi.client.post(path, json=options, headers=bearer(first["credential"]))
    assert_problem(again, 409, "already-queued")
    status = await asgi.client.get(path, headers=bearer(first["credential"]))
    assert status.json() == waiting.json()
    paired = await asgi.client.post(path, json=options, headers=bearer(second["credential"]))
    assert paired.json()["status"] == "paired"
    match_id = paired.json()["match_id"]
    status = await asgi.client.get(path, headers=bearer(first["credential"]))
    assert (status.json()["match_id"], status.json()["seat"]) == (match_id, 0)
    started = await inbox(asgi.app, first["credential"], 1)
    assert started[0]["data"] == {"kind": "match_started", "match_id": match_id, "seat": 0}
    view = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(first["credential"]))
    assert view.json()["options"]["game_target"] == 77


async def test_a_wait_can_be_cancelled_once(asgi: Asgi) -> None:
    player = await sign_up(asgi.client, "Quitter")
    path = "/players/me/quick-match"
    never = await asgi.client.get(path, headers=bearer(player["credential"]))
    assert_problem(never, 404, "not-queued")
    await asgi.client.post(
        path, json={"options": {"game_target": 78}}, headers=bearer(player["credential"])
    )
    cancelled = await asgi.client.delete(path, headers=bearer(player["credential"]))
    assert cancelled.status_code == 204
    twice = await asgi.client.delete(path, headers=bearer(player["credential"]))
    assert_problem(twice, 404, "not-queued")


async def test_an_invite_for_one_player_is_refused_to_anyone_else(asgi: Asgi) -> None:
    host, guest = await sign_up(asgi.client, "Host"), await sign_up(asgi.client, "Guest")
    other = await sign_up(asgi.client, "Other")
    made = await asgi.client.post(
        "/players/me/invites",
        json={"to_player_id": guest["player_id"]},
        headers=bearer(host["credential"]),
    )
    assert made.status_code == 201, made.text
    code = made.json()["invite_code"]
    body = {"invite_code": code}
    refused = await asgi.client.post(
        "/players/me/join", json=body, headers=bearer(other["credential"])
    )
    assert_problem(refused, 403, "invite-not-for-you")
    anonymous = await asgi.client.post("/matches/join", json=body)
    assert_problem(anonymous, 403, "invite-not-for-you")
    received = await inbox(asgi.app, guest["credential"], 1)
    assert received[0]["event"] == "invitation_received"
    assert received[0]["data"]["invite_code"] == code
    assert received[0]["data"]["from_player"] == "Host"
    joined = await asgi.client.post(
        "/players/me/join", json=body, headers=bearer(guest["credential"])
    )
    assert joined.status_code == 201, joined.text


async def test_an_invite_to_an_unknown_player_is_refused(asgi: Asgi) -> None:
    host = await sign_up(asgi.client, "Host")
    refused = await asgi.client.post(
        "/players/me/invites",
        json={"to_player_id": "00000000-0000-4000-8000-000000000000"},
        headers=bearer(host["credential"]),
    )
    assert_problem(refused, 404, "player-not-found")
