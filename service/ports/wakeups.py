"""The wake-ups port: hints that a match stream has new events, for live streams and bots.

A wake-up only says "look again": whoever waits always re-reads the store by version, and also
looks again on a timer, so a lost wake-up delays an event and never loses it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

# Called with each stream id woken, or None when wake-ups may have been missed.
Listener = Callable[[str | None], None]


class VersionsHeard(Protocol):
    """Who keeps what the wake-ups tell of every stream's newest version (``watch``)."""

    def heard(self, stream_id: str, version: int | None) -> None:
        """An append to ``stream_id`` reached ``version`` (None: a wake-up that does not say)."""
        ...

    def listening(self, on: bool) -> None:
        """Wake-ups are heard from now on (True), or may be missed from now on (False)."""
        ...


class Waiter(Protocol):
    """One pending wake-up for one stream: take it before reading the store, then wait once."""

    async def wait(self, timeout: float) -> bool:
        """True if woken, False after ``timeout`` seconds; either way the waiter is released."""
        ...

    def close(self) -> None:
        """Stop waiting; nothing is left behind."""
        ...


# Runtime-checkable because the web layer injects it by this type, and Litestar checks an
# injected value against its annotation with isinstance.
@runtime_checkable
class Wakeups(Protocol):
    def waiter(self, stream_id: str) -> Waiter:
        """A waiter that any append to ``stream_id`` from now on wakes."""
        ...

    def subscribe(self, listener: Listener) -> None:
        """Hear of every stream, not one: ``listener`` gets each stream id woken, and None
        whenever some may have been missed (when listening (re)starts, and on stopping)."""
        ...

    def waiting(self) -> int:
        """How many waiters are pending, over all streams."""
        ...

    def watch(self, versions: VersionsHeard) -> None:
        """Tell ``versions`` the version each wake-up names, and when listening starts and
        stops: every append committed while it listens is heard, after its commit."""
        ...

    async def start(self) -> None:
        """Begin listening; returns once appends from now on are heard (or after a while)."""
        ...

    async def stop(self) -> None:
        """Stop listening and wake every waiter, so none waits out its timeout for nothing."""
        ...
