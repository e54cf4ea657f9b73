"""An operator gives a seat of its match a new token at every table size: the old token is
refused at once, the new one opens the seat; only the match's operator may, and only for a
person's seat."""

from __future__ import annotations

import uuid

import pytest

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key, running_app
from tests.tournament.play import Client, Json, bearer

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])


async def round_of_one(client: Client, key: str, seats: int, bots: list[str | None]) -> Json:
    body = {"matches": [{"players": seats, "bots": bots}]}
    made = await client.post("/rounds", json=body, headers=bearer(key))
    assert made.status_code == 201, made.text
    match: Json = made.json()["matches"][0]
    return match


@EVERY_SIZE
async def test_a_reissued_token_opens_the_seat_and_the_old_one_no_longer_does(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await new_key(keys, f"Reissue {uuid.uuid4()}", "matches:create")
    match = await round_of_one(client, key, seats, [])
    view = f"/matches/{match['match_id']}/view"
    old = match["seats"][1]["token"]
    assert (await client.get(view, headers=bearer(old))).status_code == 200  # cached now

    reissued = await client.post(f"/matches/{match['match_id']}/seats/1/token", headers=bearer(key))

    assert reissued.status_code == 201, reissued.text
    new = reissued.json()["token"]
    assert (reissued.json()["match_id"], reissued.json()["seat"]) == (match["match_id"], 1)
    assert new != old
    refused = await client.get(view, headers=bearer(old))
    assert (refused.status_code, refused.json()["type"]) == (403, "/problems/wrong-token")
    seen = await client.get(view, headers=bearer(new))
    assert seen.status_code == 200, seen.text
    assert seen.json()["seat"] == 1
    other = match["seats"][0]["token"]
    assert (await client.get(view, headers=bearer(other))).status_code == 200


@EVERY_SIZE
async def test_only_the_matchs_operator_reissues_and_only_a_persons_seat(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await new_key(keys, f"Reissue own {uuid.uuid4()}", "matches:create")
    stranger = await new_key(keys, f"Reissue other {uuid.uuid4()}", "matches:create")
    match = await round_of_one(client, key, seats, [None, "random"])
    path = f"/matches/{match['match_id']}/seats"

    theirs = await client.post(f"{path}/0/token", headers=bearer(stranger))
    bot = await client.post(f"{path}/1/token", headers=bearer(key))
    beyond = await client.post(f"{path}/{seats}/token", headers=bearer(key))

    assert (theirs.status_code, theirs.json()["type"]) == (403, "/problems/not-your-match")
    assert (bot.status_code, bot.json()["type"]) == (400, "/problems/invalid-parameter")
    assert beyond.status_code == 400, beyond.text
    view = await client.get(
        f"/matches/{match['match_id']}/view", headers=bearer(match["seats"][0]["token"])
    )
    assert view.status_code == 200


@EVERY_SIZE
async def test_the_old_token_is_refused_at_once_by_another_server_process(
    client: Client, keys: OperatorKeys, database_url: str, seats: int
) -> None:
    key = await new_key(keys, f"Reissue across {uuid.uuid4()}", "matches:create")
    match = await round_of_one(client, key, seats, [])
    view = f"/matches/{match['match_id']}/view"
    old = match["seats"][0]["token"]
    async with running_app(database_url) as other:
        assert (await other.get(view, headers=bearer(old))).status_code == 200  # it has the row

        reissued = await client.post(
            f"/matches/{match['match_id']}/seats/0/token", headers=bearer(key)
        )

        assert reissued.status_code == 201, reissued.text
        refused = await other.get(view, headers=bearer(old))
        assert refused.status_code == 403, refused.text
        opened = await other.get(view, headers=bearer(reissued.json()["token"]))
        assert opened.status_code == 200, opened.text
