"""Wake-ups across every server process sharing one database: PostgreSQL LISTEN/NOTIFY.

The event store sends ``NOTIFY`` on one channel with the ids of the match streams appended to,
after the appends commit (``adapters/postgres/wakeup_sender.py``). Each process LISTENs on one
connection and wakes the streams waiting on those stream ids. A lost notification (a dropped
connection, a restart) is made up for by waking everyone on every new connection: they re-read
the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import psycopg

from adapters.wakeup_hub import WakeupHub
from service.store.live_streams import wakes_readers

# Sent to by ``PostgresEventStore``; the payload names the match streams appended to.
CHANNEL = "gin_match_events"
# Between the stream ids of one notification (match stream ids have no spaces).
SEPARATOR = " "
# Starts the token after a stream id that names the version its append reached ("@12"): a
# process of an earlier release wakes it as a stream no one waits on, and ignores it.
VERSION_MARK = "@"

_log = logging.getLogger("gin.notifications")


class PostgresWakeups(WakeupHub):
    def __init__(self, conninfo: str, *, retry_seconds: float = 1.0) -> None:
        super().__init__()
        self._conninfo = conninfo
        self._retry_seconds = retry_seconds
        self._task: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()
        self._tried = asyncio.Event()  # the first attempt to listen is over, either way

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen_forever(), name="gin-listen")
        # Wait briefly for LISTEN, so a stream opened right after startup misses nothing; not
        # at all if the database does not answer (the service starts during an outage).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._tried.wait(), 5)

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
            finally:
                self.hearing(False)
            self._tried.set()
            self.listening.clear()
            # Streams re-read after a reconnect: anything notified meanwhile is picked up.
            self.wake_all()
            await asyncio.sleep(self._retry_seconds)

    async def _listen_once(self) -> None:
        async with await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            self.hearing(True)
            self.listening.set()
            self._tried.set()
            self.wake_all()
            async for notification in conn.notifies():
                for stream, version in read_payload(notification.payload):
                    # A player's inbox has no versions: only a match's stream is told.
                    if version is not None or wakes_readers(stream):
                        self.heard(stream, version)
                    self.wake(stream)


def read_payload(payload: str) -> list[tuple[str, int | None]]:
    """The streams a notification names, each with the version it says its append reached
    (None when it does not say: a process of an earlier release sent it)."""
    found: list[tuple[str, int | None]] = []
    for token in payload.split(SEPARATOR):
        if not token.startswith(VERSION_MARK):
            found.append((token, None))
        elif found and found[-1][1] is None and token[1:].isdigit():
            found[-1] = (found[-1][0], int(token[1:]))
    return found
