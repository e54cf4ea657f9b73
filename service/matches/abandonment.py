"""Abandonment: a match nobody has moved in for ``after_seconds`` ends with no winner.

The deadlines' timer sweeps for idle matches every ``sweep_seconds`` and once on start, so a
match that went idle while no server ran ends as soon as one starts. A sweep claims idle
matches under a lease (``IdleMatches``), then ends each like any command: decided on the state
loaded at the version it was found idle at, with the system steps that follow, and appended
at that version, so a move that got there first wins and the abandonment is dropped.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from domain.commands import Abandon
from domain.errors import DomainError
from service.errors import DatabaseUnavailable
from service.matches.use_cases import MatchService
from service.ports import event_store
from service.ports.idle_matches import IdleMatch, IdleMatches
from service.store.match_streams import Loaded, match_id_of

_log = logging.getLogger("gin.abandonment")
ABANDON_AFTER_SECONDS = 7 * 24 * 3600.0
# How late an abandonment may be: an idle match ends within this of its limit.
SWEEP_SECONDS = 600.0
# A very short limit (a test's) still sweeps no more than once a second.
MIN_SWEEP_SECONDS = 1.0
CLAIMED_AT_ONCE = 100
LEASE_SECONDS = 30.0


class Abandonment:
    def __init__(
        self,
        idle: IdleMatches,
        matches: MatchService,
        *,
        after_seconds: float = ABANDON_AFTER_SECONDS,
        lease_seconds: float = LEASE_SECONDS,
        claimed_at_once: int = CLAIMED_AT_ONCE,
    ) -> None:
        self._idle = idle
        self._matches = matches
        self._after = timedelta(seconds=after_seconds)
        self._lease = lease_seconds
        self._batch = claimed_at_once
        # A sweep at least as often as the limit itself, so a short limit is kept too.
        self.sweep_seconds = max(MIN_SWEEP_SECONDS, min(SWEEP_SECONDS, after_seconds))

    async def abandon_idle(self) -> int:
        """End every match idle now; how many were abandoned."""
        abandoned = 0
        while True:
            now = self._matches.clock()
            claimed = await self._idle.claim_idle(
                now - self._after, now, limit=self._batch, lease_seconds=self._lease
            )
            for idle in claimed:
                try:
                    if await self.abandon(idle, now) is not None:
                        abandoned += 1
                except DatabaseUnavailable:
                    raise
                except Exception:
                    _log.exception("an abandonment failed", extra={"stream_id": idle.stream_id})
            if len(claimed) < self._batch:
                return abandoned

    async def abandon(self, idle: IdleMatch, now: datetime) -> Loaded[Any] | None:
        """End the match found idle at ``idle.version``; None if it has moved on or ended."""
        match_id = match_id_of(idle.stream_id)
        if match_id is None:
            return None
        match = await self._matches.match(match_id)
        if match.clocks_start_at is not None and now < match.clocks_start_at:
            return None  # waiting for its round's start is not idling
        loaded = await self._matches.load(match)
        if loaded.version != idle.version:
            return None
        try:
            events = self._matches.rules_for(match).decide(loaded.state, Abandon())
        except DomainError:
            return None
        try:
            return await self._matches.append_decided(match, loaded, events, now=now)
        except event_store.ConcurrencyConflict:
            return None
