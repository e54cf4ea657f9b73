"""Creating a match is one request at every table size: the seats' entropy after the server's
commitment, invites for every other seat or for the seats named, and what is refused."""

from __future__ import annotations

import random
from pathlib import Path

from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.audit.game_record import decode_record
from service.audit.verify import verify_file
from tests.api.any_size import EVERY_SIZE, QUICK, create_at, play_out, views
from tests.api.players import Table
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


@EVERY_SIZE
async def test_every_seats_entropy_goes_into_the_shuffles_of_a_match_that_verifies(
    client: Client, seats: int, tmp_path: Path
) -> None:
    committed = await client.post("/commitments")
    assert committed.status_code == 201, committed.text
    commitment = committed.json()["commitment"]
    entropy = [f"seat {seat}'s dice: {random.randrange(10**6)}" for seat in range(seats)]

    table = await create_at(client, seats, entropy=entropy, commitment=commitment)
    await play_out(client, table, random.Random(seats))
    response = await client.get(f"{table.path}/record")
    assert response.status_code == 200, response.text
    path = tmp_path / "record.json"
    path.write_bytes(response.content)

    verdict = verify_file(path)

    assert verdict.ok, verdict.problem
    record = decode_record(response.content)
    assert record.status == "finished"
    assert record.fairness.commitments[0] == commitment
    assert record.fairness.entropy == entropy


@EVERY_SIZE
async def test_entropy_without_a_commitment_is_refused_at_every_size(
    client: Client, seats: int
) -> None:
    response = await client.post(
        "/matches", json={"players": seats, "options": QUICK, "entropy": ["dice"] * seats}
    )

    assert_problem(response, 422, "entropy-before-commitment")


@EVERY_SIZE
async def test_an_invite_leaves_every_other_seat_to_invited_players(
    client: Client, seats: int
) -> None:
    creator = seats - 1
    response = await client.post(
        "/matches", json={"players": seats, "options": QUICK, "invite": True, "seat": creator}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert [seat["seat"] for seat in created["seats"]] == [creator]
    codes = {invite["seat"]: invite["invite_code"] for invite in created["invites"]}
    assert sorted(codes) == [seat for seat in range(seats) if seat != creator]
    assert created["invite_code"] == codes[min(codes)]

    tokens = {creator: created["seats"][0]["token"]}
    for seat, code in codes.items():
        joined = await client.post("/matches/join", json={"invite_code": code})
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == seat
        tokens[seat] = joined.json()["token"]
    seen = await views(client, Table(created["match_id"], tokens))
    assert all(view["cut"] is not None for view in seen.values())


@EVERY_SIZE
async def test_invites_that_do_not_fit_the_table_are_refused(client: Client, seats: int) -> None:
    for body, detail in (
        ({"invite": True, "seat": seats}, "seat"),
        ({"invite": True, "invite_seats": [1]}, "not both"),
        ({"invite_seats": [seats]}, "invite_seats"),
    ):
        response = await client.post("/matches", json={"players": seats, **body})
        assert response.status_code in (400, 422), (body, response.text)
        assert response.headers["content-type"] == "application/problem+json"
        assert detail in response.json()["detail"], (body, response.text)
