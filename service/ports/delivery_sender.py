"""The delivery sender port: one POST of a signed webhook body, bounded by a timeout."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from service.ports.delivery_queue import Outcome


class DeliverySender(Protocol):
    async def send(
        self, url: str, body: bytes, headers: Mapping[str, str], *, address: str | None = None
    ) -> Outcome:
        """POST ``body`` with ``headers`` to ``url``: the status, or the error there was
        instead (a refused connection, a timeout). Never raises for the receiver's sake.

        ``address``: connect to this IP address, checked already, instead of resolving the
        URL's host again (which could answer differently); the host still names the site
        (``Host``, TLS)."""
        ...

    def close(self) -> None:
        """Let go of what sending holds (threads, connections)."""
        ...
