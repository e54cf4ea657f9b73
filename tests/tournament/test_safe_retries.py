"""Creating matches safely: Idempotency-Key on POST /matches, external refs unique per
operator, and an operator's matches found by ref or listed with filters and a cursor."""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import psycopg
import pytest

from service.tournament.operators import OperatorKeys
from tests.api import players as api
from tests.api.any_size import QUICK, play_out
from tests.tournament.conftest import new_key
from tests.tournament.play import SHORT_MATCH, Client, Json, Table, bearer, play_commands


def keyed(key: str, idempotency_key: str) -> dict[str, str]:
    return {**bearer(key), "Idempotency-Key": idempotency_key}


async def create(client: Client, headers: dict[str, str], **body: Any) -> Any:
    return await client.post("/matches", json={"options": SHORT_MATCH, **body}, headers=headers)


async def listed(client: Client, key: str, **params: str) -> Json:
    response = await client.get("/operator/matches", params=params, headers=bearer(key))
    assert response.status_code == 200, response.text
    result: Json = response.json()
    return result


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_create_retried_after_its_answer_was_lost_returns_the_same_match_and_tokens(
    client: Client, keys: OperatorKeys, players: int
) -> None:
    key = await new_key(keys, f"Retry {uuid.uuid4()}", "matches:create", "matches:read")
    headers = keyed(key, "create-cup-r1-m1")
    ref = f"cup-{uuid.uuid4()}"

    body = {"external_ref": ref, "players": players, "options": QUICK}
    await create(client, headers, **body)  # the answer never reaches the caller
    retried = await create(client, headers, **body)

    assert retried.status_code == 201, retried.text
    again = (await create(client, headers, **body)).json()
    assert again == retried.json()
    assert len(again["seats"]) == players
    found = await listed(client, key, external_ref_prefix=ref)
    assert [m["match_id"] for m in found["matches"]] == [again["match_id"]]
    # The tokens answered again open every seat: the match is played out with them.
    seats = api.Table(again["match_id"], {s["seat"]: s["token"] for s in again["seats"]})
    await play_out(client, seats, random.Random(players))


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_concurrent_creates_with_one_key_make_one_match(
    client: Client, keys: OperatorKeys, players: int
) -> None:
    key = await new_key(keys, f"Race {uuid.uuid4()}", "matches:create", "matches:read")
    ref = f"race-{uuid.uuid4()}"
    headers = keyed(key, ref)

    answers = await asyncio.gather(
        *(create(client, headers, external_ref=ref, players=players) for _ in range(4))
    )

    statuses = sorted(a.status_code for a in answers)
    assert set(statuses) <= {201, 409}
    created = {a.json()["match_id"] for a in answers if a.status_code == 201}
    assert len(created) == 1
    for waited in (a for a in answers if a.status_code == 409):
        assert waited.json()["type"] == "/problems/idempotency-key-in-flight"
        assert waited.headers["Retry-After"] == "1"
    assert len((await listed(client, key, external_ref_prefix=ref))["matches"]) == 1


async def test_the_key_with_another_body_is_refused_and_creates_nothing(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Other {uuid.uuid4()}", "matches:create", "matches:read")
    ref = f"other-{uuid.uuid4()}"
    first = await create(client, keyed(key, ref), external_ref=ref)

    refused = await create(client, keyed(key, ref), external_ref=ref + "-b")

    assert first.status_code == 201
    assert refused.status_code == 422
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["type"] == "/problems/idempotency-key-reused"
    assert len((await listed(client, key, external_ref_prefix=ref))["matches"]) == 1


async def test_the_same_key_of_two_operators_makes_two_matches(
    client: Client, keys: OperatorKeys
) -> None:
    one = await new_key(keys, f"One {uuid.uuid4()}", "matches:create")
    two = await new_key(keys, f"Two {uuid.uuid4()}", "matches:create")

    first = await create(client, keyed(one, "shared-key"), external_ref="r1")
    second = await create(client, keyed(two, "shared-key"), external_ref="r1")

    assert first.json()["match_id"] != second.json()["match_id"]


async def test_the_database_keeps_no_seat_token_nor_idempotency_key_in_plain_text(
    client: Client, keys: OperatorKeys, database_url: str
) -> None:
    key = await new_key(keys, f"Sealed {uuid.uuid4()}", "matches:create")
    idempotency_key = f"sealed-{uuid.uuid4()}"
    made = (await create(client, keyed(key, idempotency_key))).json()

    with psycopg.connect(database_url) as connection:
        rows = connection.execute(
            "SELECT key_hash, sealed, expires_at - created_at >= interval '1 day' "
            "FROM match_creations"
        ).fetchall()
    stored = b"".join(bytes(k) + bytes(s or b"") for k, s, _ in rows)
    for seat in made["seats"]:
        assert seat["token"].encode() not in stored
    assert idempotency_key.encode() not in stored
    assert all(kept_a_day for _, sealed, kept_a_day in rows if sealed)


async def test_a_reused_external_ref_is_refused_and_creates_nothing(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Refs {uuid.uuid4()}", "matches:create", "matches:read")
    other = await new_key(keys, f"Refs other {uuid.uuid4()}", "matches:create")
    ref = f"ref-{uuid.uuid4()}"
    await create(client, bearer(key), external_ref=ref)

    refused = await create(client, bearer(key), external_ref=ref)
    elsewhere = await create(client, bearer(other), external_ref=ref)

    assert refused.status_code == 409
    assert refused.json()["type"] == "/problems/external-ref-taken"
    assert elsewhere.status_code == 201  # unique per operator, not across operators
    assert len((await listed(client, key, external_ref_prefix=ref))["matches"]) == 1


async def test_a_match_is_found_by_its_external_ref_by_its_operator_only(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Find {uuid.uuid4()}", "matches:create", "matches:read")
    other = await new_key(keys, f"Find other {uuid.uuid4()}", "matches:read")
    ref = f"find/{uuid.uuid4()} #1"
    made = (
        await create(client, bearer(key), external_ref=ref, external_player_ids=["p1", "p2"])
    ).json()
    path, ref_param = "/operator/matches/by-ref", {"external_ref": ref}

    found = await client.get(path, params=ref_param, headers=bearer(key))
    hidden = await client.get(path, params=ref_param, headers=bearer(other))

    assert found.status_code == 200, found.text
    assert found.json()["match_id"] == made["match_id"]
    assert found.json()["status"] == "in_progress"
    assert [p["external_player_id"] for p in found.json()["players"]] == ["p1", "p2"]
    assert hidden.status_code == 404
    assert hidden.json()["type"] == "/problems/match-not-found"


async def test_an_operators_matches_are_listed_by_status_and_prefix_with_a_stable_cursor(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"List {uuid.uuid4()}", "matches:create", "matches:read")
    made = [
        (await create(client, bearer(key), external_ref=f"week-1-{n}")).json() for n in range(5)
    ]
    await create(client, bearer(key), external_ref="week-2-0")
    table = Table(made[2]["match_id"], {s["seat"]: s["token"] for s in made[2]["seats"]})
    await play_commands(client, table)

    pages, cursor = [], None
    while True:
        params = {"external_ref_prefix": "week-1-", "limit": "2"}
        page = await listed(client, key, **params, **({"cursor": cursor} if cursor else {}))
        pages.append([m["external_ref"] for m in page["matches"]])
        cursor = page["next"]
        if cursor is None:
            break
        await create(client, bearer(key), external_ref=f"week-1-later-{len(pages)}")
    finished = await listed(client, key, status="finished")

    seen = [ref for page in pages for ref in page]
    assert seen[:5] == [f"week-1-{n}" for n in range(5)]
    assert len(seen) == len(set(seen))
    assert [m["match_id"] for m in finished["matches"]] == [made[2]["match_id"]]


async def test_listing_refuses_a_cursor_it_did_not_make(client: Client, keys: OperatorKeys) -> None:
    key = await new_key(keys, f"Cursor {uuid.uuid4()}", "matches:read")

    refused = await client.get(
        "/operator/matches", params={"cursor": "not-a-cursor"}, headers=bearer(key)
    )

    assert refused.status_code == 400
    assert refused.json()["type"] == "/problems/invalid-parameter"


async def test_an_external_ref_holding_a_nul_is_refused_everywhere(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Nul {uuid.uuid4()}", "matches:create", "matches:read", "feed:read")
    ref = "cup\x00r1"

    answers = [
        await create(client, bearer(key), external_ref=ref),
        await client.post(
            "/rounds", json={"matches": [{"external_ref": ref}]}, headers=bearer(key)
        ),
        await client.get(
            "/operator/matches/by-ref", params={"external_ref": ref}, headers=bearer(key)
        ),
        await client.get(
            "/operator/matches", params={"external_ref_prefix": ref}, headers=bearer(key)
        ),
        await client.get("/feed", params={"external_ref": ref}, headers=bearer(key)),
    ]

    assert [a.status_code for a in answers] == [422, 422, 400, 400, 400]
    assert {a.headers["content-type"] for a in answers} == {"application/problem+json"}
