"""The turn clocks' timer, as a background task of a server process.

One timer per process sleeps until the next deadline worth claiming (``Deadlines.next_wakeup``)
and looks again whenever a match stream has new events (a ``Wakeups`` hint: a deadline may
have moved). When one is due it claims it under a lease, ``FOR UPDATE SKIP LOCKED`` in
PostgreSQL, so of several processes waking for the same deadline one tries it and the others
go back to sleep. The timeout is then appended at the match's version like any command: a move
that got there first wins, and the timeout is dropped. Deadlines that fell due while no process
ran are due at once when one starts; one whose claimer died is taken up when its lease ends.

Matches of every table size keep their next deadline in their streams the same way.

The same timer sweeps for abandoned matches (``service.matches.abandonment``) on start and then
every ``Abandonment.sweep_seconds``: idleness is read from what the store already keeps, so no
deadline row has to move with every command.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta

from service.errors import DatabaseUnavailable
from service.matches.abandonment import Abandonment
from service.matches.use_cases import MatchService
from service.ports.deadlines import Deadlines
from service.ports.wakeups import Wakeups
from service.stopping import stop_tasks
from service.store.match_streams import match_id_of

_log = logging.getLogger("gin.clocks")
CLAIMED_AT_ONCE = 100
LEASE_SECONDS = 30.0
RETRY_SECONDS = 1.0


class DeadlineTimer:
    def __init__(
        self,
        deadlines: Deadlines,
        matches: MatchService,
        *,
        lease_seconds: float = LEASE_SECONDS,
        claimed_at_once: int = CLAIMED_AT_ONCE,
        abandonment: Abandonment | None = None,
    ) -> None:
        """``lease_seconds`` is how long a claimed deadline is left to its claimer before
        another process may take it up; ``abandonment``, if given, is swept as well."""
        self._deadlines = deadlines
        self._matches = matches
        self._lease = lease_seconds
        self._batch = claimed_at_once
        self._changed = asyncio.Event()
        self._abandonment = abandonment
        self._next_sweep: datetime | None = None  # None: sweep now (on start)

    def notice(self, stream: str | None) -> None:
        """A wake-up: a match's deadline may have moved (None: wake-ups may have been missed)."""
        if stream is None or match_id_of(stream) is not None:
            self._changed.set()

    async def fire_due(self) -> int:
        """Claim every deadline due now and time each out; how many timeouts applied."""
        applied = 0
        while True:
            claimed = await self._deadlines.claim_due(
                self._matches.clock(), limit=self._batch, lease_seconds=self._lease
            )
            for stream in claimed:
                try:
                    if await self._time_out(stream):
                        applied += 1
                except DatabaseUnavailable:
                    raise
                except Exception:
                    match_id = match_id_of(stream)
                    _log.exception("a timeout failed", extra={"match_id": match_id})
            if len(claimed) < self._batch:
                return applied

    async def _time_out(self, stream: str) -> bool:
        """Whether a timeout applied in the match of ``stream``."""
        match_id = match_id_of(stream)
        if match_id is None:
            return False
        return await self._matches.time_out(match_id) is not None

    async def sweep_if_due(self) -> int:
        """Abandon the idle matches if a sweep is due (always on the first call); how many."""
        if self._abandonment is None:
            return 0
        now = self._matches.clock()
        if self._next_sweep is not None and now < self._next_sweep:
            return 0
        abandoned = await self._abandonment.abandon_idle()
        self._next_sweep = now + timedelta(seconds=self._abandonment.sweep_seconds)
        return abandoned

    async def seconds_to_sleep(self) -> float | None:
        """How long to sleep before the next deadline worth claiming or the next sweep;
        None: until woken."""
        now = self._matches.clock()
        wakeup = await self._deadlines.next_wakeup()
        if self._abandonment is not None and self._next_sweep is not None:
            wakeup = self._next_sweep if wakeup is None else min(wakeup, self._next_sweep)
        if wakeup is None:
            return None
        return max(0.0, (wakeup - now).total_seconds())

    async def run(self) -> None:
        # Claims are made only when the timer runs out (or on start, for deadlines that fell
        # due while no process ran): a wake-up costs one look at the next deadline, no more.
        fire = True
        while True:
            self._changed.clear()
            try:
                if fire:
                    await self.fire_due()
                    await self.sweep_if_due()
                delay = await self.seconds_to_sleep()
            except DatabaseUnavailable:
                _log.warning("the turn clocks wait for the database")
                delay = RETRY_SECONDS
            except Exception:
                _log.exception("the turn clocks' timer failed")
                delay = RETRY_SECONDS
            fire = delay == 0.0
            if not fire:
                try:
                    await asyncio.wait_for(self._changed.wait(), timeout=delay)
                except TimeoutError:
                    fire = True


@asynccontextmanager
async def running_deadlines(timer: DeadlineTimer, wakeups: Wakeups) -> AsyncIterator[None]:
    wakeups.subscribe(timer.notice)
    task = asyncio.create_task(timer.run(), name="gin-clocks")
    try:
        yield
    finally:
        await stop_tasks(task)
