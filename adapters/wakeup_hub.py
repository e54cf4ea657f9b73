"""The in-process half of every wake-ups adapter: who waits on which stream, and who listens to
all of them. An adapter only has to call ``wake`` for each appended stream it hears of, and
``wake_all`` whenever it may have missed some."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from service.ports.wakeups import Listener, VersionsHeard


class HubWaiter:
    """One pending wake-up: take it before reading the store, then wait on it once."""

    def __init__(self, event: asyncio.Event, release: Callable[[], None]) -> None:
        self._event = event
        self._release = release

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        finally:
            self.close()
        return True

    def close(self) -> None:
        # A finished match is never woken again, so a waiter must not outlive its wait.
        self._release()


class WakeupHub:
    def __init__(self) -> None:
        self._pending: dict[str, set[asyncio.Event]] = {}
        self._listeners: list[Listener] = []
        self._watchers: list[VersionsHeard] = []

    def waiter(self, stream_id: str) -> HubWaiter:
        event = asyncio.Event()
        self._pending.setdefault(stream_id, set()).add(event)

        def release() -> None:
            waiting = self._pending.get(stream_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._pending[stream_id]

        return HubWaiter(event, release)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def watch(self, versions: VersionsHeard) -> None:
        self._watchers.append(versions)

    def heard(self, stream_id: str, version: int | None) -> None:
        """What an adapter calls with the version each wake-up names, before ``wake``."""
        for watcher in self._watchers:
            watcher.heard(stream_id, version)

    def hearing(self, on: bool) -> None:
        """What an adapter calls once it listens (True), and once it may miss some (False)."""
        for watcher in self._watchers:
            watcher.listening(on)

    def waiting(self) -> int:
        return sum(len(waiting) for waiting in self._pending.values())

    def wake(self, stream_id: str) -> None:
        for event in self._pending.pop(stream_id, ()):
            event.set()
        for listener in self._listeners:
            listener(stream_id)

    def wake_all(self) -> None:
        pending, self._pending = self._pending, {}
        for waiting in pending.values():
            for event in waiting:
                event.set()
        for listener in self._listeners:
            listener(None)
