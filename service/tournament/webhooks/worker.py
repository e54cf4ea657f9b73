"""Claim due deliveries, send them side by side, record each outcome."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid

from service.tournament.webhooks.queue import Claimed, DeliveryQueue
from service.tournament.webhooks.sender import Sender
from service.tournament.webhooks.settings import WebhookSettings


def worker_name() -> str:
    """Which process made an attempt, as the attempt log shows it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Worker:
    def __init__(
        self, queue: DeliveryQueue, settings: WebhookSettings, name: str | None = None
    ) -> None:
        self._queue = queue
        self._batch_size = settings.batch_size
        self._sender = Sender(threads=settings.batch_size, timeout=settings.timeout_seconds)
        self.name = name or worker_name()

    async def deliver_once(self) -> int:
        """Attempt one batch of due deliveries; how many were claimed."""
        batch = await self._queue.claim(self.name, self._batch_size)
        await asyncio.gather(*(self._attempt(claimed) for claimed in batch))
        return len(batch)

    async def _attempt(self, claimed: Claimed) -> None:
        await self._queue.finish(claimed, await self._sender.send(claimed))

    def close(self) -> None:
        self._sender.close()
