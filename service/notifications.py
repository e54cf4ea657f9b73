"""Wake-ups for live streams, across every server process sharing one database.

Every committed append to a match stream sends ``NOTIFY`` on one channel with the stream id
(a trigger from migration 0002, so it is part of the append's transaction). Each process
LISTENs on one connection and wakes the streams waiting on that stream id.
A notification is only a hint to look again: streams always re-read the store by version and
also look again on a timer, so a lost notification (a dropped connection, a restart) delays an
event by at most that timer and never loses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import psycopg

CHANNEL = "gin_match_events"

_log = logging.getLogger("gin.notifications")

# Called with each notified stream id, or None when notifications may have been missed.
Listener = Callable[[str | None], None]


class Waiter:
    """One pending wake-up: take it before reading the store, then wait on it once."""

    def __init__(self, event: asyncio.Event, release: Callable[[], None]) -> None:
        self._event = event
        self._release = release

    async def wait(self, timeout: float) -> bool:
        """True if woken by a notification, False after ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        finally:
            self.close()
        return True

    def close(self) -> None:
        """Stop waiting; nothing is left behind (a finished match is never notified again)."""
        self._release()


class MatchNotifier:
    def __init__(self, conninfo: str, *, retry_seconds: float = 1.0) -> None:
        self._conninfo = conninfo
        self._retry_seconds = retry_seconds
        self._pending: dict[str, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None
        self._listeners: list[Listener] = []
        self.listening = asyncio.Event()

    def waiter(self, stream_id: str) -> Waiter:
        event = asyncio.Event()
        self._pending.setdefault(stream_id, set()).add(event)

        def release() -> None:
            waiting = self._pending.get(stream_id)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._pending[stream_id]

        return Waiter(event, release)

    def subscribe(self, listener: Listener) -> None:
        """Hear of every stream, not one: ``listener`` gets each notified stream id, and None
        whenever some may have been missed (on every new connection, and on stopping)."""
        self._listeners.append(listener)

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

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen_forever(), name="gin-listen")
        # Wait briefly for LISTEN, so a stream opened right after startup misses nothing.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), 5)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.wake_all()

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen_once()
            except (psycopg.Error, OSError) as error:
                _log.warning("listen connection lost, retrying", extra={"error": str(error)})
            self.listening.clear()
            # Streams re-read after a reconnect: anything notified meanwhile is picked up.
            self.wake_all()
            await asyncio.sleep(self._retry_seconds)

    async def _listen_once(self) -> None:
        async with await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self.listening.set()
            self.wake_all()
            async for notification in conn.notifies():
                self.wake(notification.payload)
