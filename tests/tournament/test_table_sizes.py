"""The global feed and the webhooks hear of matches of every table size: a three- or
four-player match's events are in the feed as a spectator sees them, and its creation, cut,
hand ends, game end and match end reach the operator's webhooks."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from service.tournament.operators import OperatorKeys
from tests.api.test_formats import QUICK_MATCH, play_out
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, Table, bearer, create_table, play_commands
from tests.tournament.receiver import running_receiver
from tests.tournament.test_feed import of_match, read_feed
from tests.tournament.webhook_helpers import deliveries, eventually, operator_with_webhook

SEATS = [2, 3, 4]


@pytest.fixture(scope="module")
async def feed_key(keys: OperatorKeys) -> str:
    return await new_key(keys, "feed reader", "feed:read", "feed:all")


async def a_match(client: Client, seats: int, key: str | None = None) -> tuple[str, dict[int, str]]:
    """A match of ``seats`` seats (a person on seat 0, bots on the others past two)."""
    headers = bearer(key) if key else {}
    if seats == 2:
        table = await create_table(client, operator_key=key, options=QUICK_MATCH)
        return table.match_id, table.tokens
    bots = [None, *["random"] * (seats - 1)]
    response = await client.post(
        "/matches", json={"options": QUICK_MATCH, "players": seats, "bots": bots}, headers=headers
    )
    assert response.status_code == 201, response.text
    created: Json = response.json()
    return created["match_id"], {s["seat"]: s["token"] for s in created["seats"]}


async def play(client: Client, match_id: str, tokens: dict[int, str], moves: int | None) -> None:
    """``moves`` commands of the people (None: to the match's end)."""
    if len(tokens) == 2:
        await play_commands(client, Table(match_id, tokens), moves)
        return
    path = f"/matches/{match_id}"
    (token,) = tokens.values()  # the one person; bots answer within the request
    for _ in range(moves if moves is not None else 5_000):
        view = (await client.get(f"{path}/view", headers=bearer(token))).json()
        if view["phase"] == "match_over":
            return
        response = await client.post(
            f"{path}/commands", json=view["legal_actions"][0], headers=bearer(token)
        )
        assert response.status_code == 200, response.text


@pytest.mark.parametrize("seats", SEATS)
async def test_the_feed_lists_a_match_of_every_size_as_a_spectator_sees_it(
    client: Client, feed_key: str, seats: int
) -> None:
    _, start = await read_feed(client, feed_key)
    match_id, tokens = await a_match(client, seats)
    await play(client, match_id, tokens, 6)
    played = len((await client.get(f"/matches/{match_id}/events")).json()["events"])

    # Bots at a table of bots go on playing: the feed, read until it lists what was played,
    # is the start of what a spectator reads after it.
    for _ in range(100):
        entries, _ = await read_feed(client, feed_key, after=start)
        mine = of_match(entries, match_id)
        if len(mine) >= played:
            break
        await asyncio.sleep(0.05)
    spectator = (await client.get(f"/matches/{match_id}/events")).json()["events"]
    assert len(mine) >= played
    assert [(e["version"], e["data"]) for e in mine] == [
        (e["version"], e["event"]) for e in spectator
    ][: len(mine)]
    assert [e["version"] for e in mine] == list(range(1, len(mine) + 1))
    assert all(e["type"] == e["data"]["type"] for e in mine)
    # Narrowed to the match by its id, a page lists the same: a page scans up to ``limit``
    # events of the log, so a match with bots in it can run past one page.
    page = await client.get(
        "/feed",
        params={"after": start, "match_id": match_id, "limit": 1000},
        headers=bearer(feed_key),
    )
    assert page.status_code == 200, page.text
    narrowed = [e["version"] for e in page.json()["entries"]]
    assert narrowed
    assert narrowed == [e["version"] for e in mine][: len(narrowed)]


@pytest.mark.parametrize("seats", SEATS)
async def test_the_webhooks_hear_every_end_of_a_match_of_every_size(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    with running_receiver() as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, f"Table of {seats}"
        )
        match_id, tokens = await a_match(client, seats, key)
        if seats == 2:
            await play(client, match_id, tokens, None)
        else:
            await play_out(client, match_id, tokens, seed=seats)
        spectator = (await client.get(f"/matches/{match_id}/events")).json()["events"]
        by_version = {e["version"]: e["event"] for e in spectator}

        async def settled() -> bool:
            found = await deliveries(client, key, webhook_id)
            return (
                bool(found)
                and all(d["status"] == "delivered" for d in found)
                and any(d["kind"] == "match_end" for d in found)
            )

        await eventually(settled)
        requests = receiver.requests()

    payloads = [json.loads(r.body) for r in requests]
    kinds = Counter(p["kind"] for p in payloads)
    assert kinds["match_created"] == kinds["match_started"] == kinds["match_end"] == 1
    assert kinds["game_end"] >= 1
    assert kinds["hand_end"] >= 1
    for payload in payloads:
        assert payload["match_id"] == match_id
        # The event as a spectator sees it once the match is over: every hand is.
        assert payload["event"] == by_version[payload["version"]]
    hand_ends = [p["event"] for p in payloads if p["kind"] == "hand_end"]
    if seats > 2:
        assert {e["type"] for e in hand_ends} == {"table_event"}
        assert {e["event"]["type"] for e in hand_ends} <= {"scored", "hand_drawn"}
