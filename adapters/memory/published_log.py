"""The published log checkpoint and the operators' decisions, in memory."""

from __future__ import annotations

from service.ports.published_log import Acceptance, Published


class InMemoryPublishedLog:
    def __init__(self) -> None:
        self._last: Published | None = None
        self._acceptances: list[Acceptance] = []

    async def last(self) -> Published | None:
        return self._last

    async def publish(self, published: Published) -> None:
        if self._last is None or published.size > self._last.size:
            self._last = published

    async def accept(self, acceptance: Acceptance) -> None:
        self._acceptances.append(acceptance)
        self._last = None

    async def acceptances(self) -> list[Acceptance]:
        return list(self._acceptances)
