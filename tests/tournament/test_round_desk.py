"""A tournament desk over HTTP: an operator lists its rounds page by page (``Link`` headers),
finds a round's or a player's matches, follows one match's feed entries (which name the match's
external ref and round), and cancels a round, at every table size: each match still being
played ends voided, told in its result, the feed and a webhook."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, bearer, in_the_feed
from tests.tournament.receiver import running_receiver
from tests.tournament.webhook_helpers import SECRET, deliveries, eventually

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
SCOPES = ("matches:create", "matches:read", "matches:adjudicate", "feed:read", "webhooks:manage")
QUICK = {"game_target": 10, "match_target": 0}


async def desk_key(keys: OperatorKeys) -> str:
    return await new_key(keys, f"Desk {uuid.uuid4()}", *SCOPES)


async def new_round(client: Client, key: str, prefix: str, seats: int = 2, count: int = 2) -> Json:
    body = {
        "options": QUICK,
        "matches": [
            {
                "external_ref": f"{prefix}-{n}",
                "players": seats,
                "external_player_ids": [f"{prefix}-p{n}-{s}" for s in range(seats)],
            }
            for n in range(count)
        ],
    }
    made = await client.post("/rounds", json=body, headers=bearer(key))
    assert made.status_code == 201, made.text
    answer: Json = made.json()
    return answer


def next_of(response: Any) -> str | None:
    """The address of the following page from a ``Link`` header, if any."""
    link = response.headers.get("link")
    if link is None:
        return None
    target, rel = link.split(";")
    assert rel.strip() == 'rel="next"'
    return str(target.strip()[1:-1])


async def test_rounds_are_listed_oldest_first_page_by_page_following_links(
    client: Client, keys: OperatorKeys
) -> None:
    key, other = await desk_key(keys), await desk_key(keys)
    made = [await new_round(client, key, f"list{n}", count=1) for n in range(5)]
    await new_round(client, other, "theirs", count=1)

    seen: list[Json] = []
    address: str | None = "/rounds?limit=2"
    pages = 0
    while address is not None:
        page = await client.get(address, headers=bearer(key))
        assert page.status_code == 200, page.text
        seen += page.json()["rounds"]
        assert (next_of(page) is None) == (page.json()["next"] is None)
        address = next_of(page)
        pages += 1

    assert [r["round_id"] for r in seen] == [r["round_id"] for r in made]
    assert pages == 3
    assert seen[0]["match_ids"] == [m["match_id"] for m in made[0]["matches"]]
    assert seen[0]["results"] == f"/rounds/{made[0]['round_id']}"


async def test_an_operators_matches_filter_by_round_and_by_player_with_links(
    client: Client, keys: OperatorKeys
) -> None:
    key = await desk_key(keys)
    first = await new_round(client, key, "fa", count=3)
    await new_round(client, key, "fb", count=1)

    of_round = await client.get(
        "/operator/matches",
        params={"round_id": first["round_id"], "limit": 2},
        headers=bearer(key),
    )
    following = next_of(of_round)
    assert following is not None
    rest = await client.get(following, headers=bearer(key))
    of_player = await client.get(
        "/operator/matches", params={"external_player_id": "fb-p0-1"}, headers=bearer(key)
    )

    refs = [m["external_ref"] for m in [*of_round.json()["matches"], *rest.json()["matches"]]]
    assert sorted(refs) == ["fa-0", "fa-1", "fa-2"]  # one round's share a creation time
    assert f"round_id={first['round_id']}" in following
    assert [m["external_ref"] for m in of_player.json()["matches"]] == ["fb-0"]


@EVERY_SIZE
async def test_one_matchs_feed_names_its_ref_and_round_and_links_on(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    key = await desk_key(keys)
    made = await new_round(client, key, f"feed{seats}", seats=seats, count=2)
    await in_the_feed(client, key, made["matches"][1]["match_id"])

    page = await client.get(
        "/feed", params={"external_ref": f"feed{seats}-1", "limit": 3}, headers=bearer(key)
    )

    assert page.status_code == 200, page.text
    entries = page.json()["entries"]
    assert entries
    assert {e["match_id"] for e in entries} == {made["matches"][1]["match_id"]}
    assert {(e["external_ref"], e["round_id"]) for e in entries} == {
        (f"feed{seats}-1", made["round_id"])
    }
    following = next_of(page)
    assert following is not None
    assert f"after={page.json()['next']}" in following
    assert f"external_ref=feed{seats}-1" in following


@EVERY_SIZE
async def test_a_cancelled_round_ends_every_match_still_played_told_everywhere(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    with running_receiver() as receiver:
        key = await desk_key(keys)
        hook = await client.post(
            "/webhooks",
            json={"url": receiver.url, "secret": SECRET, "events": ["match_end"]},
            headers=bearer(key),
        )
        assert hook.status_code == 201, hook.text
        made = await new_round(client, key, f"cancel{seats}", seats=seats, count=2)
        done = made["matches"][0]  # over before the round is cancelled
        awarded = await client.post(
            f"/matches/{done['match_id']}/adjudication",
            json={"verdict": "award", "seat": 1, "reason": "seat 0 withdrew"},
            headers=bearer(key),
        )
        assert awarded.status_code == 200, awarded.text
        reason = "the venue closed early"

        cancelled = await client.post(
            f"/rounds/{made['round_id']}/cancel", json={"reason": reason}, headers=bearer(key)
        )
        again = await client.post(
            f"/rounds/{made['round_id']}/cancel", json={"reason": reason}, headers=bearer(key)
        )

        assert cancelled.status_code == 200, cancelled.text
        assert [m["cancelled"] for m in cancelled.json()["matches"]] == [False, True]
        assert [m["cancelled"] for m in again.json()["matches"]] == [False, False]
        voided = made["matches"][1]["match_id"]
        result = (await client.get(f"/matches/{voided}/result")).json()
        assert result["status"] == "finished"
        assert result["winner"] is None
        assert result["ending"]["note"] == reason
        token = made["matches"][1]["seats"][0]["token"]
        late = await client.post(
            f"/matches/{voided}/commands", json={"type": "resign"}, headers=bearer(token)
        )
        assert late.status_code == 409, late.text
        await in_the_feed(client, key, voided)
        feed = await client.get(
            "/feed", params={"match_id": voided, "type": "match_ended"}, headers=bearer(key)
        )
        [ended] = feed.json()["entries"]
        assert (ended["round_id"], ended["data"]["note"]) == (made["round_id"], reason)
        webhook_id = hook.json()["webhook_id"]

        async def told() -> bool:
            found = await deliveries(client, key, webhook_id)
            delivered: int = sum(d["status"] == "delivered" for d in found)
            return delivered == 2

        await eventually(told)
        ends = [json.loads(request.body) for request in receiver.requests()]
    by_match = {end["match_id"]: end for end in ends if end["kind"] == "match_end"}
    assert by_match[voided]["reason"] == "voided"
    assert by_match[voided]["round_id"] == made["round_id"]
    assert by_match[done["match_id"]]["reason"] == "awarded"


async def test_another_operators_round_is_not_found_nor_cancelled(
    client: Client, keys: OperatorKeys
) -> None:
    key, other = await desk_key(keys), await desk_key(keys)
    made = await new_round(client, key, "mine", count=1)

    refused = await client.post(
        f"/rounds/{made['round_id']}/cancel", json={"reason": "not mine"}, headers=bearer(other)
    )
    empty = await client.post(
        f"/rounds/{made['round_id']}/cancel", json={"reason": ""}, headers=bearer(key)
    )

    assert (refused.status_code, refused.json()["type"]) == (404, "/problems/round-not-found")
    assert empty.status_code in (400, 422), empty.text
    status = await client.get(f"/matches/{made['matches'][0]['match_id']}")
    assert status.json()["status"] == "in_progress"
