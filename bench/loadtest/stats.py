"""What a load run measures: the latency of each request by kind, and every error by kind."""

from __future__ import annotations

import math
from collections import Counter

PERCENTILES = (50, 90, 99)


class Stats:
    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = {}
        self.errors: Counter[str] = Counter()

    def took(self, kind: str, seconds: float) -> None:
        self.seconds.setdefault(kind, []).append(seconds)

    def failed(self, kind: str) -> None:
        self.errors[kind] += 1

    def count(self, kind: str) -> int:
        return len(self.seconds.get(kind, []))

    def milliseconds(self, kind: str) -> dict[str, float]:
        """p50, p90, p99 and max of one kind of request, in milliseconds (nearest rank)."""
        ordered = sorted(self.seconds.get(kind, []))
        if not ordered:
            return {}
        spread = {f"p{p}": 1000 * nearest_rank(ordered, p) for p in PERCENTILES}
        spread["max"] = 1000 * ordered[-1]
        return spread


def nearest_rank(ordered: list[float], percentile: float) -> float:
    """The smallest value with at least ``percentile`` % of the values at or below it."""
    rank = max(math.ceil(percentile / 100 * len(ordered)), 1)
    return ordered[rank - 1]
