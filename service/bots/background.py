"""The bot runner as a background task of a server process: it plays the bot moves that no
request answered inline.

It is woken by every append to a match (from any process sharing the store, see the
``Wakeups`` port), and it sweeps every unfinished match with a bot seat when it starts and
whenever wake-ups may have been missed. So a match left waiting on a bot (the process that
should have answered stopped first) is resumed by the next process to start, and a bot match
created or joined by one process is played by all of them, the store taking one move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from domain.events import MATCH_ENDING_TYPES
from domain.tables import FORMAT_MATCH_ENDING_TYPES
from service.bots.runner import BotRunner
from service.errors import DatabaseUnavailable
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry
from service.ports.wakeups import Wakeups
from service.stopping import stop_tasks
from service.store.match_streams import KINDS, match_id_of, stream_id

_log = logging.getLogger("gin.bots")


class DueMatches:
    """What the background task has to look at: matches woken, and whether to sweep.

    ``ignored`` names matches no bot plays (a person's, once looked at): waking for each of
    their appends would cost every command a task switch and a look for nothing.
    """

    def __init__(self, ignored: Callable[[str], bool] = lambda match_id: False) -> None:
        self._ignored = ignored
        self._due: set[str] = set()
        self._sweep = True
        self._changed = asyncio.Event()

    def notice(self, stream: str | None) -> None:
        if stream is None:
            self._sweep = True
        elif (match_id := match_id_of(stream)) is not None and not self._ignored(match_id):
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


async def unfinished_bot_matches(registry: MatchRegistry, store: EventStore) -> set[str]:
    """Every match with a bot seat whose stream holds no end of the match."""
    with_bots = await registry.matches_with_bots()
    streams = [kind.stream_id(m) for m in with_bots for kind in KINDS]  # one exists of each
    won = await store.latest_versions(streams, (*MATCH_ENDING_TYPES, *FORMAT_MATCH_ENDING_TYPES))
    return {m for m in with_bots if not any(kind.stream_id(m) in won for kind in KINDS)}


@asynccontextmanager
async def running_bots(
    runner: BotRunner, wakeups: Wakeups, registry: MatchRegistry, store: EventStore
) -> AsyncIterator[None]:
    due = DueMatches(ignored=runner.known_without_bots)
    wakeups.subscribe(due.notice)
    task = asyncio.create_task(_play_due(runner, due, registry, store), name="gin-bots")
    try:
        yield
    finally:
        await stop_tasks(task)


async def _play_due(
    runner: BotRunner, matches: DueMatches, registry: MatchRegistry, store: EventStore
) -> None:
    while True:
        due, sweep = await matches.next()
        if sweep:
            try:
                due |= await unfinished_bot_matches(registry, store)
            except DatabaseUnavailable:
                _log.warning("the sweep for matches waiting on a bot waits for the database")
                matches.notice(None)
                await asyncio.sleep(1.0)
            except Exception:
                _log.exception("the sweep for matches waiting on a bot failed")
                matches.notice(None)
                await asyncio.sleep(1.0)
        for match_id in due:
            try:
                await runner.resume(match_id)
            except DatabaseUnavailable:
                # Swept again once the database is back (a reconnect wakes everyone).
                _log.warning("a bot match waits for the database", extra={"match_id": match_id})
                matches.notice(None)
            except Exception:
                _log.exception("a bot match could not be resumed", extra={"match_id": match_id})
        if stalled := runner.take_stalled():
            await asyncio.sleep(1.0)  # the outage may last: no busy loop meanwhile
            for match_id in stalled:
                matches.notice(stream_id(match_id))
