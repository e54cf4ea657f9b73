"""Idempotent creates at every table size, anonymous and by an operator: a retry answers
byte for byte what the first request did, with the same match, tokens and invite codes; the
key with another body (another table size included) is refused and creates nothing."""

from __future__ import annotations

import uuid

import pytest

from service.tournament.operators import OperatorKeys
from tests.api.any_size import EVERY_SIZE, QUICK
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, bearer

WHO = pytest.mark.parametrize("operated", [False, True], ids=["anonymous", "operator"])


def body_at(seats: int, ref: str | None) -> Json:
    """A match of ``seats`` with an invited seat (its invite code is in the answer too)."""
    invite: Json = {"invite_seats": [seats - 1]} if seats > 2 else {"invite": True}
    body: Json = {"players": seats, "options": QUICK, **invite}
    if ref is not None:
        body |= {"external_ref": ref, "external_player_ids": [f"{ref}-{s}" for s in range(seats)]}
    return body


async def headers_for(keys: OperatorKeys, operated: bool, idempotency_key: str) -> Json:
    if not operated:
        return {"Idempotency-Key": idempotency_key}
    key = await new_key(keys, f"Retry {uuid.uuid4()}", "matches:create", "matches:read")
    return {**bearer(key), "Idempotency-Key": idempotency_key}


@EVERY_SIZE
@WHO
async def test_a_retried_create_answers_byte_for_byte_the_same(
    client: Client, keys: OperatorKeys, seats: int, operated: bool
) -> None:
    headers = await headers_for(keys, operated, f"create-{uuid.uuid4()}")
    body = body_at(seats, f"cup-{uuid.uuid4()}" if operated else None)

    first = await client.post("/matches", json=body, headers=headers)
    again = await client.post("/matches", json=body, headers=headers)

    assert first.status_code == again.status_code == 201, first.text
    assert again.content == first.content
    made = first.json()
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    assert sorted(tokens) == list(range(seats - 1))  # the last seat is invited
    for seat, token in tokens.items():
        view = await client.get(f"/matches/{made['match_id']}/view", headers=bearer(token))
        assert view.status_code == 200, view.text
        assert view.json()["seat"] == seat
    code = made["invites"][0]["invite_code"] if seats > 2 else made["invite_code"]
    joined = await client.post("/matches/join", json={"invite_code": code})
    assert joined.status_code == 201, joined.text
    assert joined.json() == {**joined.json(), "match_id": made["match_id"], "seat": seats - 1}


@EVERY_SIZE
@WHO
async def test_the_key_with_another_body_is_refused_and_creates_nothing(
    client: Client, keys: OperatorKeys, seats: int, operated: bool
) -> None:
    headers = await headers_for(keys, operated, f"other-{uuid.uuid4()}")
    ref = f"other-{uuid.uuid4()}" if operated else None
    first = await client.post("/matches", json=body_at(seats, ref), headers=headers)
    assert first.status_code == 201, first.text
    other_size = 2 + (seats - 1) % 3  # 2 -> 3, 3 -> 4, 4 -> 2
    others = [
        {**body_at(seats, ref), "options": {**QUICK, "game_target": 20}},
        body_at(other_size, ref),
    ]

    for other in others:
        refused = await client.post("/matches", json=other, headers=headers)

        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["type"] == "/problems/idempotency-key-reused"
    if operated:
        listed = await client.get(
            "/operator/matches", params={"external_ref_prefix": ref}, headers=headers
        )
        assert [m["match_id"] for m in listed.json()["matches"]] == [first.json()["match_id"]]
