"""The clock of the in-memory adapters: the time now, as an aware datetime; tests pass one
they can move on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)
