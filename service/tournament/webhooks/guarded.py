"""A delivery sender that checks the destination again before each attempt, around any other:
an attempt to a URL that now resolves to a refused address fails without a connection."""

from __future__ import annotations

from collections.abc import Mapping

from service.errors import WebhookUrlRefused
from service.ports.delivery_queue import Outcome
from service.ports.delivery_sender import DeliverySender
from service.tournament.webhooks.destinations import Destinations


class GuardedSender:
    def __init__(self, sender: DeliverySender, destinations: Destinations) -> None:
        self._sender = sender
        self._destinations = destinations

    async def send(
        self, url: str, body: bytes, headers: Mapping[str, str], *, address: str | None = None
    ) -> Outcome:
        try:
            checked = await self._destinations.check(url)
        except WebhookUrlRefused as refused:
            return Outcome(error=f"refused: {refused}")
        return await self._sender.send(url, body, headers, address=checked)

    def close(self) -> None:
        self._sender.close()
