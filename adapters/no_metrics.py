"""The metrics port, counting nothing: what the service runs with when ``GIN_METRICS`` is off
(``/metrics`` then answers an empty page). It exists so that what metrics cost can be measured
against the same service without them (``bench/observability_cost.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from service.ports.metrics import CommandOutcome, DeliveryOutcome


class NoMetrics:
    content_type = "text/plain; version=0.0.4; charset=utf-8"

    def command(self, command_type: str, outcome: CommandOutcome) -> None:
        pass

    def appended(self, events: int) -> None:
        pass

    def append_conflict(self) -> None:
        pass

    def webhook_delivery(self, outcome: DeliveryOutcome) -> None:
        pass

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        pass

    def problem(self, kind: str, status: int) -> None:
        pass

    def watch(self, *, pool: Callable[[], Mapping[str, int]], waiting: Callable[[], int]) -> None:
        pass

    def exposition(self) -> bytes:
        return b""
