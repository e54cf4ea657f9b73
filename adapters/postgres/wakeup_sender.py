"""The sending half of the PostgreSQL wake-ups: a ``NOTIFY`` for match streams appended to,
after their appends commit and never inside them.

PostgreSQL serialises notifying transactions across the whole cluster (``PreCommit_Notify``
takes a lock held through the commit's WAL flush), so a ``NOTIFY`` inside each append would
make the appends commit one at a time (migration 0007). Here each process sends its wake-ups
from one task, in transactions of their own, on a connection of its own (from the pool, a
wake-up would queue behind the appends waiting for a connection). The first append after a
quiet spell is sent at once; after that at most one notification goes every ``interval``
seconds, naming every stream appended to meanwhile. So a busy process adds a hundred small
transactions a second, not one per append, and every listening process has one notification
to read for many appends; a reader hears of an append at most ``interval`` plus a round trip
after it commits. The transaction does not wait for its WAL flush: a wake-up is a hint, and a
lost one costs a reader its timer, never an event.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Iterator
from typing import Any

import psycopg

from adapters.postgres.wakeups import CHANNEL, SEPARATOR, VERSION_MARK

NOTIFY = """
SELECT set_config('synchronous_commit', 'off', true), pg_notify(%s, payload)
FROM unnest(%s::text[]) AS payload
"""
# PostgreSQL refuses a payload of 8000 bytes or more.
MAX_PAYLOAD = 7_900

_log = logging.getLogger("gin.notifications")


def payloads(streams: Iterable[tuple[str, int | None]]) -> Iterator[str]:
    """The stream ids, each followed by the version its append reached when known
    ("match-a @12"), separated, in as few notifications' payloads as fit."""
    batch: list[str] = []
    size = 0
    for stream, version in streams:
        named = stream if version is None else f"{stream}{SEPARATOR}{VERSION_MARK}{version}"
        if batch and size + len(SEPARATOR) + len(named.encode()) > MAX_PAYLOAD:
            yield SEPARATOR.join(batch)
            batch, size = [], 0
        size += len(named.encode()) + (len(SEPARATOR) if batch else 0)
        batch.append(named)
    if batch:
        yield SEPARATOR.join(batch)


# Well inside the 50 ms a live stream may take to hear of an append in another process.
INTERVAL = 0.01
# How long closing waits for the wake-ups asked for so far to go out.
CLOSE_SECONDS = 5.0


class WakeupSender:
    def __init__(self, conninfo: str, *, interval: float = INTERVAL) -> None:
        self._conninfo = conninfo
        self._interval = interval
        self._connection: psycopg.AsyncConnection[Any] | None = None
        # Insertion-ordered, so the streams are woken in the order they were appended to;
        # each with the newest version its appends reached.
        self._pending: dict[str, int | None] = {}
        self._task: asyncio.Task[None] | None = None

    def appended(self, stream_id: str, version: int | None = None) -> None:
        """``stream_id`` has new committed events (up to ``version``, when it has versions):
        wake its readers, soon."""
        before = self._pending.get(stream_id)
        self._pending[stream_id] = version if before is None else max(before, version or 0)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._send(), name="gin-wake")

    async def close(self) -> None:
        """Send every wake-up asked for so far, then close the connection (another wake-up
        asked for opens it again)."""
        if self._task is not None:
            # Bounded: a server stopping must not wait on a database that does not answer.
            await asyncio.wait({self._task}, timeout=CLOSE_SECONDS)
        await self._disconnect()

    async def _send(self) -> None:
        while self._pending:
            streams, self._pending = list(self._pending.items()), {}
            try:
                connection = await self._connected()
                await connection.execute(NOTIFY, (CHANNEL, list(payloads(streams))))
            except (psycopg.Error, OSError) as error:
                # The server restarting, the connection dropped: readers look again on their
                # timers, and the next wake-up connects afresh.
                _log.warning("wake-ups not sent", extra={"error": str(error)})
                await self._disconnect()
            await asyncio.sleep(self._interval)

    async def _connected(self) -> psycopg.AsyncConnection[Any]:
        if self._connection is None or self._connection.closed:
            self._connection = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True
            )
        return self._connection

    async def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            await connection.close()
