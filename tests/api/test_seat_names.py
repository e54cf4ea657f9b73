"""Display names at every table size: seats that players joined by invite are named in the
summary and in every seat's view; the other seats are nobody's. The last player's join starts
the match at every size."""

from __future__ import annotations

from tests.api.accounts import sign_up
from tests.api.any_size import EVERY_SIZE, QUICK
from tests.api.conftest import Asgi
from tests.api.players import bearer


@EVERY_SIZE
async def test_the_seats_players_joined_are_named_at_every_table_size(
    asgi: Asgi, seats: int
) -> None:
    client = asgi.client
    invited = list(range(1, seats))
    body = {"players": seats, "invite_seats": invited} if seats > 2 else {"invite": True, "seat": 0}
    created = await client.post("/matches", json={"options": QUICK, **body})
    assert created.status_code == 201, created.text
    made = created.json()
    codes = (
        {i["seat"]: i["invite_code"] for i in made["invites"]}
        if seats > 2
        else {1: made["invite_code"]}
    )
    names = {seat: f"Player {seat}" for seat in invited}
    credentials = {}
    for seat, code in codes.items():
        player = await sign_up(client, names[seat])
        joined = await client.post(
            "/players/me/join", json={"invite_code": code}, headers=bearer(player["credential"])
        )
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == seat
        credentials[seat] = player["credential"]

    expected = [names.get(seat) for seat in range(seats)]  # seat 0's token is nobody's
    summary = (await client.get(f"/matches/{made['match_id']}")).json()
    assert [p.get("display_name") for p in summary["players"]] == expected
    view_of = {0: bearer(made["seats"][0]["token"])}
    view_of |= {seat: bearer(credential) for seat, credential in credentials.items()}
    for seat, headers in view_of.items():
        view = await client.get(f"/matches/{made['match_id']}/view", headers=headers)
        assert view.status_code == 200, view.text
        assert view.json()["seat"] == seat
        assert view.json()["display_names"] == expected
        assert view.json()["phase"] != "cut"  # the last join made the cut it waited for

        assert all(c not in view.text for c in credentials.values())
