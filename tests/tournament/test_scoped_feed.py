"""The feed of an operator: its own matches unless the key holds ``feed:all``; filters by
match, external ref and event type; following ``next`` still misses nothing."""

from __future__ import annotations

import uuid
from typing import Any

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import (
    Client,
    Json,
    bearer,
    create_table,
    in_the_feed,
    play_commands,
)


async def follow(client: Client, key: str, **params: Any) -> list[Json]:
    """Every entry the feed shows this key with these filters, following ``next``."""
    entries: list[Json] = []
    after = 0
    while True:
        response = await client.get(
            "/feed", params={"after": after, "limit": 50, **params}, headers=bearer(key)
        )
        assert response.status_code == 200, response.text
        page = response.json()
        entries += page["entries"]
        if page["next"] == after:
            return entries
        after = page["next"]


async def test_an_operators_feed_shows_only_its_own_matches_unless_it_may_read_all(
    client: Client, keys: OperatorKeys
) -> None:
    name = f"Club {uuid.uuid4()}"
    mine = await new_key(keys, name, "matches:create", "feed:read")
    theirs = await new_key(keys, f"Rival {uuid.uuid4()}", "matches:create", "feed:read")
    everything = await new_key(keys, f"Auditor {uuid.uuid4()}", "feed:read", "feed:all")
    own = await create_table(client, operator_key=mine)
    other = await create_table(client, operator_key=theirs)
    anonymous = await create_table(client)
    for table in (own, other, anonymous):
        await play_commands(client, table, 4)
    await in_the_feed(client, everything, own.match_id, other.match_id, anonymous.match_id)

    seen = {e["match_id"] for e in await follow(client, mine)}
    seen_all = {e["match_id"] for e in await follow(client, everything)}

    assert seen == {own.match_id}
    assert {own.match_id, other.match_id, anonymous.match_id} <= seen_all


async def test_the_feed_filters_by_match_external_ref_and_type(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Filter {uuid.uuid4()}", "matches:create", "feed:read")
    ref = f"filter-{uuid.uuid4()}"
    one = await create_table(client, operator_key=key, external_ref=ref)
    two = await create_table(client, operator_key=key)
    for table in (one, two):
        await play_commands(client, table, 6)
    await in_the_feed(client, key, one.match_id, two.match_id)

    by_match = await follow(client, key, match_id=two.match_id)
    by_ref = await follow(client, key, external_ref=ref)
    by_type = await follow(client, key, type=["drew", "discarded"])

    assert {e["match_id"] for e in by_match} == {two.match_id}
    assert [e["version"] for e in by_match] == sorted(e["version"] for e in by_match)
    assert {e["match_id"] for e in by_ref} == {one.match_id}
    assert {e["type"] for e in by_type} == {"drew", "discarded"}
    everything = await follow(client, key)
    assert [e for e in everything if e["type"] in ("drew", "discarded")] == by_type


async def test_a_key_asking_for_another_operators_match_is_refused(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, f"Nosy {uuid.uuid4()}", "feed:read")
    owner = await new_key(keys, f"Owner {uuid.uuid4()}", "matches:create")
    table = await create_table(client, operator_key=owner, external_ref="private-1")

    by_id = await client.get("/feed", params={"match_id": table.match_id}, headers=bearer(key))
    by_ref = await client.get("/feed", params={"external_ref": "private-1"}, headers=bearer(key))
    bad_type = await client.get("/feed", params={"type": "secrets"}, headers=bearer(key))

    assert (by_id.status_code, by_id.json()["type"]) == (403, "/problems/not-your-match")
    assert (by_ref.status_code, by_ref.json()["type"]) == (404, "/problems/match-not-found")
    assert (bad_type.status_code, bad_type.json()["type"]) == (400, "/problems/invalid-parameter")
