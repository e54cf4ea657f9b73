"""The clock: the time now, as an aware UTC datetime. Use cases stamp what they receive with
it (the domain only ever sees the times it is given); tests pass one they can move on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)
