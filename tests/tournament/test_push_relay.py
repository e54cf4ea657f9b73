"""The push relay hook: a player's turn and a player's ended match are POSTed, signed, to a
real receiver, one delivery per player, with nothing secret in them; subscribing takes the
scope ``players:relay``."""

from __future__ import annotations

import json
from typing import Any

from standardwebhooks import Webhook

from service.tournament.operators import OperatorKeys
from tests.api.accounts import pair, sign_up
from tests.api.players import ONE_GAME
from tests.api.problems import assert_problem
from tests.tournament.play import Client, bearer
from tests.tournament.receiver import Receiver, running_receiver
from tests.tournament.webhook_helpers import SECRET, deliveries, eventually

RELAY_KINDS = ["player_your_turn", "player_match_ended"]
BODY_FIELDS = {"notice_id", "kind", "player_id", "match_id", "seat", "version", "deadline"}


async def test_subscribing_to_players_news_takes_the_relay_scope(
    client: Client, keys: OperatorKeys
) -> None:
    key = (await keys.create_key("No relay", ["webhooks:manage"])).key
    refused = await client.post(
        "/webhooks",
        json={"url": "http://127.0.0.1:9/hook", "events": ["player_your_turn"]},
        headers=bearer(key),
    )
    assert_problem(refused, 403, "missing-scope")
    assert (await client.get("/webhooks", headers=bearer(key))).json()["webhooks"] == []

    # Without a choice, a webhook hears of the operator's matches only, never of players.
    plain = await client.post(
        "/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=bearer(key)
    )
    assert plain.status_code == 201, plain.text
    assert not set(plain.json()["events"]) & set(RELAY_KINDS)


def bodies(receiver: Receiver) -> list[dict[str, Any]]:
    return [json.loads(request.body) for request in receiver.requests()]


async def test_a_relay_hears_each_players_turn_and_the_end_signed_and_without_secrets(
    client: Client, keys: OperatorKeys
) -> None:
    relay = (await keys.create_key("Relay", ["webhooks:manage", "players:relay"])).key
    with running_receiver() as receiver:
        made = await client.post(
            "/webhooks",
            json={"url": receiver.url, "secret": SECRET, "events": RELAY_KINDS},
            headers=bearer(relay),
        )
        assert made.status_code == 201, made.text
        webhook_id = made.json()["webhook_id"]
        host, guest = await sign_up(client, "Ann"), await sign_up(client, "Bob")
        match_id = await pair(client, host, guest, {**ONE_GAME, "turn_seconds": 3600})
        seat_of = {host["player_id"]: 0, guest["player_id"]: 1}

        async def turn_relayed() -> bool:
            return any(b["kind"] == "player_your_turn" for b in bodies(receiver))

        await eventually(turn_relayed)
        view = (
            await client.get(f"/matches/{match_id}/view", headers=bearer(host["credential"]))
        ).json()
        resigned = await client.post(
            f"/matches/{match_id}/commands",
            json={"type": "resign"},
            headers=bearer(host["credential"]),
        )
        assert resigned.status_code == 200, resigned.text

        async def ends_relayed() -> bool:
            ended = [b for b in bodies(receiver) if b["kind"] == "player_match_ended"]
            return len(ended) == 2

        await eventually(ends_relayed)
        found: list[dict[str, Any]] = []

        async def settled() -> bool:
            # The receiver has a request before its sender records the delivery.
            found[:] = await deliveries(client, relay, webhook_id)
            return len(found) == len(receiver.requests()) and all(
                d["status"] == "delivered" for d in found
            )

        await eventually(settled)
        requests = receiver.requests()

    assert len(found) == len(requests)
    for request in requests:
        # What the relay does with the Standard Webhooks library; it raises if anything is off.
        Webhook(SECRET.encode()).verify(request.body, request.headers)
        body = json.loads(request.body)
        assert set(body) <= BODY_FIELDS
        assert body["match_id"] == match_id
        assert body["seat"] == seat_of[body["player_id"]]
        text = request.body.decode()
        for secret in (host["credential"], guest["credential"], SECRET):
            assert secret not in text
        assert "hand" not in text
        assert "card" not in text
    ended = sorted(
        (b["player_id"], b["seat"]) for b in bodies(receiver) if b["kind"] == "player_match_ended"
    )
    assert ended == sorted((p, s) for p, s in seat_of.items())
    turns = [b for b in bodies(receiver) if b["kind"] == "player_your_turn"]
    first = turns[0]
    assert first["seat"] == view["clock"]["seat"]
    assert first["deadline"] is not None
    notice_ids = [b["notice_id"] for b in bodies(receiver)]
    assert len(notice_ids) == len(set(notice_ids))
