"""Webhooks: each hand, game and match end of an operator's match is POSTed, signed, to a real
HTTP receiver; failures are retried with backoff; every attempt can be read back."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter

from standardwebhooks import Webhook

from service.tournament.operators import OperatorKeys
from tests.tournament.play import Client, bearer
from tests.tournament.receiver import running_receiver
from tests.tournament.webhook_helpers import (
    KIND_OF_EVENT,
    SECRET,
    deliveries,
    ends_of,
    eventually,
    expected_signature,
    finished_match,
    operator_with_webhook,
)


async def test_an_operator_registers_lists_and_deletes_its_webhooks(
    client: Client, keys: OperatorKeys
) -> None:
    key = (await keys.create_key("Crud", ["webhooks:manage"])).key
    other = (await keys.create_key("Someone else", ["webhooks:manage"])).key

    made = await client.post(
        "/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=bearer(key)
    )
    assert made.status_code == 201
    webhook = made.json()
    assert webhook["secret"].startswith("whsec_")
    assert webhook["events"] == [
        "match_created",
        "match_started",
        "hand_end",
        "game_end",
        "match_end",
        "player_joined",
    ]

    listed = (await client.get("/webhooks", headers=bearer(key))).json()["webhooks"]
    assert [w["webhook_id"] for w in listed] == [webhook["webhook_id"]]
    assert "secret" not in listed[0]
    assert (await client.get("/webhooks", headers=bearer(other))).json()["webhooks"] == []

    path = f"/webhooks/{webhook['webhook_id']}"
    assert (await client.delete(path, headers=bearer(other))).status_code == 404
    assert (await client.get(f"{path}/deliveries", headers=bearer(other))).status_code == 404
    assert (await client.delete(path, headers=bearer(key))).status_code == 204
    assert (await client.get("/webhooks", headers=bearer(key))).json()["webhooks"] == []
    assert (await client.delete(path, headers=bearer(key))).status_code == 404


async def test_a_webhook_needs_an_http_url_and_known_event_kinds(
    client: Client, keys: OperatorKeys
) -> None:
    key = (await keys.create_key("Careless", ["webhooks:manage"])).key
    bodies = [
        {"url": "ftp://example.test/hook"},
        {"url": "not a url"},
        {"url": "https://example.test/hook", "events": ["hand_started"]},
        {"url": "https://example.test/hook", "secret": "short"},
    ]

    for body in bodies:
        response = await client.post("/webhooks", json=body, headers=bearer(key))
        assert response.status_code in (400, 422), body


async def test_every_end_of_the_operators_match_is_posted_once_with_a_valid_signature(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        key, webhook_id = await operator_with_webhook(client, keys, receiver.url, "Signed")
        table = await finished_match(
            client, key, external_ref="cup-7", external_player_ids=["ann", "bob"]
        )
        await finished_match(client, None)  # nobody's match: no webhook hears of it
        ends = await ends_of(client, table)

        async def all_delivered() -> bool:
            found = await deliveries(client, key, webhook_id)
            return len(found) == len(ends) and all(d["status"] == "delivered" for d in found)

        await eventually(all_delivered)
        requests = receiver.requests()

    assert len(requests) == len(ends)
    by_version = {end["version"]: end["event"] for end in ends}
    for request in requests:
        headers = request.headers
        assert headers["Content-Type"] == "application/json"
        assert abs(int(headers["X-Gin-Timestamp"]) - time.time()) < 60
        assert headers["X-Gin-Signature"] == expected_signature(
            SECRET, headers["X-Gin-Timestamp"], request.body
        )
        # What a receiver does with the Standard Webhooks library (a secret not in whsec_
        # form is passed as its bytes); it raises if the signature or timestamp is off.
        Webhook(SECRET.encode()).verify(request.body, headers)
        lowered = {name.lower(): value for name, value in headers.items()}
        assert lowered["webhook-id"] == headers["X-Gin-Delivery"]
        payload = json.loads(request.body)
        assert payload["match_id"] == table.match_id
        assert payload["external_ref"] == "cup-7"
        assert payload["players"] == [
            {"seat": 0, "external_player_id": "ann"},
            {"seat": 1, "external_player_id": "bob"},
        ]
        assert payload["event"] == by_version[payload["version"]]
        assert payload["kind"] == KIND_OF_EVENT[payload["event"]["type"]]
        assert headers["X-Gin-Event"] == payload["kind"]
        assert payload["event_id"] == f"{table.match_id}:{payload['version']}"
        assert payload["result"] == f"/matches/{table.match_id}/result"
    kinds = Counter(json.loads(r.body)["kind"] for r in requests)
    assert kinds["match_created"] == kinds["match_started"] == 1
    assert kinds["game_end"] == kinds["match_end"] == 1
    assert kinds["hand_end"] >= 1
    reasons = {json.loads(r.body)["kind"]: json.loads(r.body)["reason"] for r in requests}
    assert reasons["match_end"] == "played_out"
    assert reasons["hand_end"] is None


async def test_a_webhook_hears_only_the_kinds_it_asked_for(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Finals only", events=["match_end"]
        )
        await finished_match(client, key)

        async def delivered() -> bool:
            found = await deliveries(client, key, webhook_id)
            return [d["status"] for d in found] == ["delivered"]

        await eventually(delivered)

    assert [json.loads(r.body)["kind"] for r in receiver.requests()] == ["match_end"]


async def test_a_failed_delivery_is_retried_with_backoff_and_every_attempt_is_recorded(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver(statuses=[500, 503]) as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Flaky receiver", events=["match_end"]
        )
        await finished_match(client, key)

        async def delivered() -> bool:
            found = await deliveries(client, key, webhook_id)
            return bool(found) and found[0]["status"] == "delivered"

        await eventually(delivered)
        requests = receiver.requests()

    [delivery] = await deliveries(client, key, webhook_id)
    assert delivery["attempts"] == 3
    assert [a["status_code"] for a in delivery["attempt_log"]] == [500, 503, 200]
    assert delivery["attempt_log"][0]["error"] == "the receiver answered 500"
    assert delivery["last_error"] is None
    assert len({r.body for r in requests}) == 1
    assert len({r.headers["X-Gin-Delivery"] for r in requests}) == 1
    for request in requests:
        signed = expected_signature(SECRET, request.headers["X-Gin-Timestamp"], request.body)
        assert request.headers["X-Gin-Signature"] == signed
    # FAST_WEBHOOKS: 0.2 s after the first failure, 0.4 s after the second.
    gaps = [later.at - earlier.at for earlier, later in itertools.pairwise(requests)]
    assert gaps[0] >= 0.2
    assert gaps[1] >= 0.4


async def test_a_delivery_is_given_up_after_the_last_attempt(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver(statuses=[500] * 10) as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Broken receiver", events=["match_end"]
        )
        await finished_match(client, key)

        async def failed() -> bool:
            found = await deliveries(client, key, webhook_id)
            return bool(found) and found[0]["status"] == "failed"

        await eventually(failed)
        count = len(receiver.requests())

    [delivery] = await deliveries(client, key, webhook_id)
    assert count == delivery["attempts"] == 4  # FAST_WEBHOOKS.max_attempts
    assert delivery["last_error"] == "the receiver answered 500"


async def test_deleting_a_webhook_cancels_its_pending_deliveries(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver(statuses=[500] * 10) as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Quitter", events=["match_end"]
        )
        await finished_match(client, key)

        async def tried_once() -> bool:
            found = await deliveries(client, key, webhook_id)
            return bool(found) and found[0]["attempts"] >= 1

        await eventually(tried_once)
        deleted = await client.delete(f"/webhooks/{webhook_id}", headers=bearer(key))
        assert deleted.status_code == 204
        count = len(receiver.requests())
        await asyncio.sleep(1.0)  # long enough for two more attempts, were any still made
        assert len(receiver.requests()) <= count + 1  # at most the one already under way

    [delivery] = await deliveries(client, key, webhook_id)
    assert delivery["status"] == "cancelled"


async def test_an_invited_seat_taken_is_announced_with_its_external_player_id(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        key, webhook_id = await operator_with_webhook(
            client, keys, receiver.url, "Lobby", events=["player_joined", "match_started"]
        )
        created = await client.post(
            "/matches",
            json={"invite": True, "seat": 0, "external_player_ids": ["ann", "bob"]},
            headers=bearer(key),
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        code = created.json()["invite_code"]
        joined = await client.post("/matches/join", json={"invite_code": code})
        assert joined.status_code == 201, joined.text

        async def delivered() -> bool:
            found = await deliveries(client, key, webhook_id)
            return len(found) == 2 and all(d["status"] == "delivered" for d in found)

        await eventually(delivered)
        requests = receiver.requests()

    # Deliveries may arrive in any order: the versions tell the order of the news.
    payloads = sorted((json.loads(r.body) for r in requests), key=lambda p: int(p["version"]))
    assert [p["kind"] for p in payloads] == ["player_joined", "match_started"]
    join = payloads[0]
    assert join["match_id"] == match_id
    assert join["event"] == {"type": "seat_joined", "seat": 1}
    assert join["player"] == {"seat": 1, "external_player_id": "bob"}
    [announced] = [r for r in requests if r.headers["X-Gin-Event"] == "player_joined"]
    Webhook(SECRET.encode()).verify(announced.body, announced.headers)
    events = (await client.get(f"/matches/{match_id}/events")).json()["events"]
    assert join["version"] == next(
        e["version"] for e in events if e["event"]["type"] == "seat_joined"
    )
