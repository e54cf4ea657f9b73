"""Claim due deliveries, sign and send them side by side, record each outcome."""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid

from service.ports.delivery_queue import Claimed, DeliveryQueue
from service.ports.delivery_sender import DeliverySender
from service.tournament.webhooks.settings import WebhookSettings
from service.tournament.webhooks.signing import signature_headers, standard_headers

USER_AGENT = "gin-service-webhooks/1"


def worker_name() -> str:
    """Which process made an attempt, as the attempt log shows it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def delivery_headers(claimed: Claimed, timestamp: int) -> dict[str, str]:
    """The headers of one attempt; the signature covers ``timestamp`` and the stored body."""
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Gin-Delivery": str(claimed.delivery_id),
        "X-Gin-Event": claimed.kind,
        **signature_headers(claimed.secret, timestamp, claimed.body),
        **standard_headers(
            claimed.secret,
            str(claimed.delivery_id),
            timestamp,
            claimed.body,
            previous=claimed.previous_secret,
        ),
    }


class Worker:
    def __init__(
        self,
        queue: DeliveryQueue,
        sender: DeliverySender,
        settings: WebhookSettings,
        name: str | None = None,
    ) -> None:
        self._queue = queue
        self._sender = sender
        self._batch_size = settings.batch_size
        self.name = name or worker_name()

    async def deliver_once(self) -> int:
        """Attempt one batch of due deliveries; how many were claimed."""
        batch = await self._queue.claim(self.name, self._batch_size)
        await asyncio.gather(*(self._attempt(claimed) for claimed in batch))
        return len(batch)

    async def _attempt(self, claimed: Claimed) -> None:
        headers = delivery_headers(claimed, int(time.time()))
        outcome = await self._sender.send(claimed.url, claimed.body, headers)
        await self._queue.finish(claimed, outcome)
