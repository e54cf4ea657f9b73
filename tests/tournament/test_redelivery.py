"""A failed webhook delivery sent again on the operator's word, for a match of every table
size: one more attempt, the same payload and ``webhook-id``, its earlier attempts kept; only a
failed delivery of the operator's own live webhook."""

from __future__ import annotations

import uuid

import pytest

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import FAST_WEBHOOKS, new_key
from tests.tournament.play import Client, Json, bearer
from tests.tournament.receiver import running_receiver
from tests.tournament.webhook_helpers import SECRET, deliveries, eventually

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
SCOPES = ("matches:create", "webhooks:manage")


async def only_delivery(client: Client, key: str, webhook_id: str, status: str) -> Json:
    found: list[Json] = []

    async def settled() -> bool:
        found[:] = await deliveries(client, key, webhook_id)
        return len(found) == 1 and found[0]["status"] == status

    await eventually(settled)
    return found[0]


@EVERY_SIZE
async def test_a_failed_delivery_sent_again_arrives_once_more_with_the_same_payload(
    client: Client, keys: OperatorKeys, seats: int
) -> None:
    failures = [500] * FAST_WEBHOOKS.max_attempts
    with running_receiver(statuses=failures) as receiver:
        key = await new_key(keys, f"Redelivery {uuid.uuid4()}", *SCOPES)
        stranger = await new_key(keys, f"Redelivery other {uuid.uuid4()}", *SCOPES)
        hook = await client.post(
            "/webhooks",
            json={"url": receiver.url, "secret": SECRET, "events": ["match_created"]},
            headers=bearer(key),
        )
        webhook_id = hook.json()["webhook_id"]
        made = await client.post(
            "/rounds", json={"matches": [{"players": seats}]}, headers=bearer(key)
        )
        assert made.status_code == 201, made.text
        failed = await only_delivery(client, key, webhook_id, "failed")
        again = f"/webhooks/{webhook_id}/deliveries/{failed['delivery_id']}/redelivery"

        theirs = await client.post(again, headers=bearer(stranger))
        sent = await client.post(again, headers=bearer(key))
        delivered = await only_delivery(client, key, webhook_id, "delivered")
        twice = await client.post(again, headers=bearer(key))
        bodies = [request.body for request in receiver.requests()]
        ids = {
            value
            for request in receiver.requests()
            for name, value in request.headers.items()
            if name.lower() == "webhook-id"
        }

    assert (theirs.status_code, theirs.json()["type"]) == (404, "/problems/webhook-not-found")
    assert sent.status_code == 202, sent.text
    assert delivered["attempts"] == FAST_WEBHOOKS.max_attempts + 1
    assert [a["status_code"] for a in delivered["attempt_log"]] == [*failures, 200]
    assert len(bodies) == FAST_WEBHOOKS.max_attempts + 1
    assert len(set(bodies)) == 1
    assert len(ids) == 1
    assert (twice.status_code, twice.json()["type"]) == (409, "/problems/delivery-not-failed")
