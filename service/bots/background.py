"""The bot runner as a background task of a server process: it plays the bot moves that no
request answered inline.

It is woken by every notified append to a match (from any process sharing the database, see
``service.notifications``), and it sweeps every unfinished match with a bot seat when it starts
and whenever notifications may have been missed. So a match left waiting on a bot (the process
that should have answered stopped first) is resumed by the next process to start, and a bot
match created or joined by one process is played by all of them, the store taking one move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import AsyncConnectionPool

from service.bots.runner import BotRunner
from service.notifications import MatchNotifier
from service.store.match_streams import stream_id

UNFINISHED_BOT_MATCHES = """
SELECT DISTINCT s.match_id::text FROM match_seats s
WHERE s.bot IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM events e
    WHERE e.stream_id = 'match-' || s.match_id::text AND e.type = 'match_won'
)
"""

_log = logging.getLogger("gin.bots")
_STREAM_PREFIX = stream_id("")


class Wakeups:
    """What the background task has to look at: matches notified, and whether to sweep."""

    def __init__(self) -> None:
        self._due: set[str] = set()
        self._sweep = True
        self._changed = asyncio.Event()

    def notice(self, stream: str | None) -> None:
        if stream is None:
            self._sweep = True
        elif (match_id := _match_id(stream)) is not None:
            self._due.add(match_id)
        else:
            return
        self._changed.set()

    async def next(self) -> tuple[set[str], bool]:
        """Wait for something to do; the matches due, and whether to sweep them all."""
        if not (self._due or self._sweep):
            self._changed.clear()
            await self._changed.wait()
        due, sweep = self._due, self._sweep
        self._due, self._sweep = set(), False
        return due, sweep


async def unfinished_bot_matches(pool: AsyncConnectionPool[Any]) -> set[str]:
    async with pool.connection() as conn:
        rows = await (await conn.execute(UNFINISHED_BOT_MATCHES)).fetchall()
    return {row[0] for row in rows}


@asynccontextmanager
async def running_bots(
    runner: BotRunner, notifier: MatchNotifier, pool: AsyncConnectionPool[Any]
) -> AsyncIterator[None]:
    wakeups = Wakeups()
    notifier.subscribe(wakeups.notice)
    task = asyncio.create_task(_play_due(runner, wakeups, pool), name="gin-bots")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _play_due(runner: BotRunner, wakeups: Wakeups, pool: AsyncConnectionPool[Any]) -> None:
    while True:
        due, sweep = await wakeups.next()
        if sweep:
            try:
                due |= await unfinished_bot_matches(pool)
            except Exception:
                _log.exception("the sweep for matches waiting on a bot failed")
                wakeups.notice(None)
                await asyncio.sleep(1.0)
        for match_id in due:
            try:
                await runner.resume(match_id)
            except Exception:
                _log.exception("a bot match could not be resumed", extra={"match_id": match_id})


def _match_id(stream: str) -> str | None:
    if not stream.startswith(_STREAM_PREFIX):
        return None
    try:
        return str(uuid.UUID(stream.removeprefix(_STREAM_PREFIX)))
    except ValueError:
        return None
