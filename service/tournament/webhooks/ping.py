"""A test ping: one signed POST to a webhook's receiver, now, answered with what the receiver
said. Nothing is queued or retried, and the ping is no delivery: it tries the receiver's
address, network path and signature check before a match's news depends on them."""

from __future__ import annotations

import time
import uuid

import msgspec

from service.ports.delivery_sender import DeliverySender
from service.ports.webhook_subscriptions import WebhookSubscriptions
from service.tournament.webhooks.signing import signature_headers, standard_headers
from service.tournament.webhooks.worker import USER_AGENT


class PingPayload(msgspec.Struct, frozen=True, kw_only=True):
    event_id: str  # "ping:" and a fresh id: a receiver never mistakes it for news
    kind: str  # always "ping"
    webhook_id: str


class PingResult(msgspec.Struct, frozen=True, kw_only=True):
    """``ok``: the receiver answered 2xx; ``status_code`` what it answered (null with
    ``error``, why there was no answer: refused, timed out...)."""

    ok: bool
    status_code: int | None
    error: str | None


async def ping(
    subscriptions: WebhookSubscriptions, sender: DeliverySender, operator_id: str, webhook_id: str
) -> PingResult:
    target = await subscriptions.target(operator_id, webhook_id)
    message_id = f"ping:{uuid.uuid4()}"
    body = msgspec.json.encode(PingPayload(event_id=message_id, kind="ping", webhook_id=webhook_id))
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Gin-Event": "ping",
        **signature_headers(target.secret, timestamp, body),
        **standard_headers(
            target.secret, message_id, timestamp, body, previous=target.previous_secret
        ),
    }
    outcome = await sender.send(target.url, body, headers)
    ok = outcome.status_code is not None and 200 <= outcome.status_code < 300
    return PingResult(ok=ok, status_code=outcome.status_code, error=outcome.error)
