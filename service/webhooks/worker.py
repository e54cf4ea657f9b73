"""Claim due deliveries, send them side by side, record each outcome."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid

from service.webhooks.queue import Claimed, DeliveryQueue
from service.webhooks.sender import send
from service.webhooks.settings import WebhookSettings


def worker_name() -> str:
    """Which process made an attempt, as the attempt log shows it."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Worker:
    def __init__(
        self, queue: DeliveryQueue, settings: WebhookSettings, name: str | None = None
    ) -> None:
        self._queue = queue
        self._settings = settings
        self.name = name or worker_name()

    async def deliver_once(self) -> int:
        """Attempt one batch of due deliveries; how many were claimed."""
        batch = await self._queue.claim(self.name, self._settings.batch_size)
        await asyncio.gather(*(self._attempt(claimed) for claimed in batch))
        return len(batch)

    async def _attempt(self, claimed: Claimed) -> None:
        outcome = await send(claimed, timeout=self._settings.timeout_seconds)
        await self._queue.finish(claimed, outcome)
