"""An operator's matches of every table size: one external player id per seat, shown back by
the summary, the result and the operator's own listing; more ids than seats change nothing."""

from __future__ import annotations

import uuid

from service.tournament.operators import OperatorKeys
from tests.api.any_size import EVERY_SIZE, QUICK
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, bearer


def ids_for(seats: int) -> list[str]:
    return [f"ext-{uuid.uuid4().hex[:8]}-{seat}" for seat in range(seats)]


@EVERY_SIZE
async def test_an_operator_names_the_player_of_every_seat(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await new_key(keys, "League", "matches:create", "matches:read")
    ids = ids_for(seats)
    ref = f"cup-{uuid.uuid4()}"
    body = {"players": seats, "options": QUICK, "external_ref": ref, "external_player_ids": ids}

    response = await client.post("/matches", json=body, headers=bearer(key))

    assert response.status_code == 201, response.text
    match_id = response.json()["match_id"]
    summary = (await client.get(f"/matches/{match_id}")).json()
    result = (await client.get(f"/matches/{match_id}/result")).json()
    listed = await client.get(
        "/operator/matches/by-ref", params={"external_ref": ref}, headers=bearer(key)
    )
    assert [p["external_player_id"] for p in summary["players"]] == ids
    assert [p["external_player_id"] for p in result["players"]] == ids
    assert [p["external_player_id"] for p in listed.json()["players"]] == ids


@EVERY_SIZE
async def test_some_seats_may_go_unnamed(client: Client, keys: OperatorKeys, seats: int) -> None:
    key = await new_key(keys, "League", "matches:create")
    ids = [None, *ids_for(seats - 1)[1:]]  # the last seat is left out of the list

    response = await client.post(
        "/matches",
        json={"players": seats, "options": QUICK, "external_player_ids": ids},
        headers=bearer(key),
    )

    assert response.status_code == 201, response.text
    summary = (await client.get(f"/matches/{response.json()['match_id']}")).json()
    assert [p["external_player_id"] for p in summary["players"]] == [*ids, None]


@EVERY_SIZE
async def test_more_player_ids_than_seats_are_refused_and_nothing_is_made(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await new_key(keys, "League", "matches:create", "matches:read")
    ref = f"cup-{uuid.uuid4()}"
    body = {
        "players": seats,
        "options": QUICK,
        "external_ref": ref,
        "external_player_ids": ids_for(seats + 1),
    }

    response = await client.post("/matches", json=body, headers=bearer(key))

    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    listed = await client.get(
        "/operator/matches/by-ref", params={"external_ref": ref}, headers=bearer(key)
    )
    assert listed.status_code == 404
