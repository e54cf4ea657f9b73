"""Metrics kept in a counter, for use-case tests (and for a service that reports none)."""

from __future__ import annotations

from collections import Counter

from service.ports.metrics import CommandOutcome, DeliveryOutcome


class InMemoryMetrics:
    def __init__(self) -> None:
        self.counts: Counter[tuple[str, ...]] = Counter()

    def command(self, command_type: str, outcome: CommandOutcome) -> None:
        self.counts["command", command_type, outcome] += 1

    def appended(self, events: int) -> None:
        self.counts["appends",] += 1
        self.counts["appended_events",] += events

    def append_conflict(self) -> None:
        self.counts["append_conflicts",] += 1

    def webhook_delivery(self, outcome: DeliveryOutcome) -> None:
        self.counts["webhook_delivery", outcome] += 1

    def request(self, method: str, route: str, status: int, seconds: float) -> None:
        self.counts["request", method, route, str(status)] += 1

    def problem(self, kind: str, status: int) -> None:
        self.counts["problem", kind, str(status)] += 1
