"""The worker as a use case, over the in-memory queue and a sender that records: each claimed
delivery is sent once, signed with its subscription's secret, and its outcome recorded."""

from __future__ import annotations

import time

from adapters.memory.delivery_sender import RecordingSender
from service.ports.delivery_queue import Outcome
from service.tournament.webhooks.settings import WebhookSettings
from service.tournament.webhooks.signing import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify
from service.tournament.webhooks.worker import USER_AGENT, Worker
from tests.contract.webhooks.world import SECRET, UNUSED_URL, memory_world

SETTINGS = WebhookSettings(batch_size=2, max_attempts=3)


async def test_each_claimed_delivery_is_sent_signed_and_its_outcome_recorded() -> None:
    world = memory_world()
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 3)
    sender = RecordingSender([Outcome(status_code=200), Outcome(status_code=500)])
    worker = Worker(world.queue(SETTINGS), sender, SETTINGS, name="worker-1")

    assert await worker.deliver_once() == 2
    assert await worker.deliver_once() == 1
    assert await worker.deliver_once() == 0

    assert [s.body for s in sender.sent] == [b'{"n":1}', b'{"n":2}', b'{"n":3}']
    for sent in sender.sent:
        assert sent.url == UNUSED_URL
        assert (sent.headers["X-Gin-Event"], sent.headers["User-Agent"]) == ("hand_end", USER_AGENT)
        stamp, signed = sent.headers[TIMESTAMP_HEADER], sent.headers[SIGNATURE_HEADER]
        assert verify(SECRET, sent.body, stamp, signed, now=time.time())
        assert not verify("another-secret-entirely", sent.body, stamp, signed, now=time.time())
    deliveries = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=9)
    assert [sent.headers["X-Gin-Delivery"] for sent in sender.sent] == [
        str(d.delivery_id) for d in deliveries
    ]
    assert [d.status for d in deliveries] == ["delivered", "pending", "delivered"]
    assert deliveries[1].attempt_log[0].worker == "worker-1"
    assert deliveries[1].last_error == "the receiver answered 500"
