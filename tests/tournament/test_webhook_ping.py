"""A test ping: one signed POST to the webhook's receiver, now, answered with what the
receiver said; no delivery is made of it."""

from __future__ import annotations

import json
import uuid

from standardwebhooks import Webhook

from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, bearer
from tests.tournament.receiver import running_receiver
from tests.tournament.webhook_helpers import SECRET, deliveries


async def test_a_ping_is_signed_sent_once_and_answered_with_the_receivers_status(
    client: Client, keys: OperatorKeys
) -> None:
    with running_receiver(statuses=[200, 503]) as receiver:
        key = await new_key(keys, f"Ping {uuid.uuid4()}", "webhooks:manage")
        stranger = await new_key(keys, f"Ping other {uuid.uuid4()}", "webhooks:manage")
        hook = await client.post(
            "/webhooks", json={"url": receiver.url, "secret": SECRET}, headers=bearer(key)
        )
        webhook_id = hook.json()["webhook_id"]
        path = f"/webhooks/{webhook_id}/ping"

        answered = await client.post(path, headers=bearer(key))
        failing = await client.post(path, headers=bearer(key))
        theirs = await client.post(path, headers=bearer(stranger))
        sent = receiver.requests()
        listed = await deliveries(client, key, webhook_id)

    assert answered.status_code == 200, answered.text
    assert answered.json() == {"ok": True, "status_code": 200, "error": None}
    assert failing.json() == {"ok": False, "status_code": 503, "error": None}
    assert (theirs.status_code, theirs.json()["type"]) == (404, "/problems/webhook-not-found")
    assert len(sent) == 2
    Webhook(SECRET.encode()).verify(sent[0].body, sent[0].headers)
    payload = json.loads(sent[0].body)
    assert (payload["kind"], payload["webhook_id"]) == ("ping", webhook_id)
    assert payload["event_id"].startswith("ping:")
    assert listed == []
