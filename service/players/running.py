"""The players' background tasks in a server process: the projector, and the repair of quick
matches whose maker died.

Every process runs one: the projector's turn keeps them from doing the same work twice. It goes
round again at once while it finds work, when any match stream is woken (an append in any
process), and else every ``poll_seconds``. A process that finds the turn taken tries again
shortly: the holder may have read its page just before the append that woke this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from service.errors import DatabaseUnavailable
from service.players.projector import Projector
from service.players.quick_match import QuickMatch
from service.ports.wakeups import Wakeups
from service.stopping import stop_tasks

_log = logging.getLogger("gin.players")
TURN_TAKEN_RETRY_SECONDS = 0.02


@asynccontextmanager
async def running_projector(
    projector: Projector, wakeups: Wakeups, *, poll_seconds: float = 1.0
) -> AsyncIterator[None]:
    woken = asyncio.Event()
    wakeups.subscribe(lambda _stream: woken.set())
    task = asyncio.create_task(_project(projector, woken, poll_seconds), name="gin-players")
    try:
        yield
    finally:
        await stop_tasks(task)


async def _project(projector: Projector, woken: asyncio.Event, poll_seconds: float) -> None:
    while True:
        woken.clear()
        try:
            done = await projector.project_once()
        except DatabaseUnavailable:
            _log.warning("the players' projector waits for the database")
            done = 0
        except Exception:
            _log.exception("the players' projector failed; trying again shortly")
            done = 0
        if done is None:
            await asyncio.sleep(TURN_TAKEN_RETRY_SECONDS)
        elif done == 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), poll_seconds)


@asynccontextmanager
async def running_quick_match_repair(quick_match: QuickMatch) -> AsyncIterator[None]:
    """Make the matches of pairings whose maker died: at start (the dead maker may have been
    this process before a restart) and then every ``hold``, when the next claims may lapse."""
    task = asyncio.create_task(_repair(quick_match), name="gin-quick-match-repair")
    try:
        yield
    finally:
        await stop_tasks(task)


async def _repair(quick_match: QuickMatch) -> None:
    while True:
        try:
            made = await quick_match.repair()
            if made:
                _log.warning("made %d quick matches whose maker had stopped", made)
        except DatabaseUnavailable:
            _log.warning("the quick-match repair waits for the database")
        except Exception:
            _log.exception("the quick-match repair failed; trying again later")
        await asyncio.sleep(quick_match.hold.total_seconds())
