"""A delivery sender that counts what became of each attempt, around any other one."""

from __future__ import annotations

from collections.abc import Mapping

from service.ports.delivery_queue import Outcome
from service.ports.delivery_sender import DeliverySender
from service.ports.metrics import Metrics


class MeteredSender:
    def __init__(self, sender: DeliverySender, metrics: Metrics) -> None:
        self._sender = sender
        self._metrics = metrics

    async def send(
        self, url: str, body: bytes, headers: Mapping[str, str], *, address: str | None = None
    ) -> Outcome:
        outcome = await self._sender.send(url, body, headers, address=address)
        if outcome.delivered:
            self._metrics.webhook_delivery("delivered")
        elif outcome.status_code is not None:
            self._metrics.webhook_delivery("refused")
        else:
            self._metrics.webhook_delivery("unreachable")
        return outcome

    def close(self) -> None:
        self._sender.close()
