"""A delivery sender that sends nothing: it records each call and answers from a script."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from service.ports.delivery_queue import Outcome


class Sent(msgspec.Struct, frozen=True):
    url: str
    body: bytes
    headers: dict[str, str]
    address: str | None = None


class RecordingSender:
    def __init__(self, outcomes: list[Outcome] | None = None) -> None:
        """Answers with ``outcomes`` in turn, then with 200."""
        self._outcomes = list(outcomes or [])
        self.sent: list[Sent] = []
        self.closed = False

    async def send(
        self, url: str, body: bytes, headers: Mapping[str, str], *, address: str | None = None
    ) -> Outcome:
        self.sent.append(Sent(url, body, dict(headers), address))
        return self._outcomes.pop(0) if self._outcomes else Outcome(status_code=200)

    def close(self) -> None:
        self.closed = True
