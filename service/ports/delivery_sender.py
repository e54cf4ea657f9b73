"""The delivery sender port: one POST of a signed webhook body, bounded by a timeout."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from service.ports.delivery_queue import Outcome


class DeliverySender(Protocol):
    async def send(self, url: str, body: bytes, headers: Mapping[str, str]) -> Outcome:
        """POST ``body`` with ``headers`` to ``url``: the status, or the error there was
        instead (a refused connection, a timeout). Never raises for the receiver's sake."""
        ...

    def close(self) -> None:
        """Let go of what sending holds (threads, connections)."""
        ...
