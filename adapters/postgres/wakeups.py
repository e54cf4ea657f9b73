"""Wake-ups across every server process sharing one database: PostgreSQL LISTEN/NOTIFY.

Every committed append to a match stream sends ``NOTIFY`` on one channel with the stream id
(a trigger from migration 0002, so it is part of the append's transaction). Each process
LISTENs on one connection and wakes the streams waiting on that stream id. A lost
notification (a dropped connection, a restart) is made up for by waking everyone on every new
connection: they re-read the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import psycopg

from adapters.wakeup_hub import WakeupHub

CHANNEL = "gin_match_events"

_log = logging.getLogger("gin.notifications")


class PostgresWakeups(WakeupHub):
    def __init__(self, conninfo: str, *, retry_seconds: float = 1.0) -> None:
        super().__init__()
        self._conninfo = conninfo
        self._retry_seconds = retry_seconds
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

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
