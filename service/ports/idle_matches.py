"""The idle matches port: two-player matches nobody has moved in for too long.

A match is idle when its stream's last event was stored at or before a given time and it has not
ended (no ``match_won``, no ``match_ended``). Nothing is written per command to know this: the
store's own record of when each event was stored is read, and only a claim writes, under a
lease, so that of several servers sweeping at once one tries each match. The claim names the
version the match was idle at: the abandonment is appended at that version, so a move that
got there first wins and the abandonment is dropped.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple, Protocol


class IdleMatch(NamedTuple):
    stream_id: str
    version: int


class IdleMatches(Protocol):
    async def claim_idle(
        self, idle_since: datetime, now: datetime, *, limit: int, lease_seconds: float
    ) -> list[IdleMatch]:
        """Up to ``limit`` match streams, longest idle first, whose last event was stored at
        or before ``idle_since`` and that have not ended, skipping those under a lease at
        ``now``; each is leased to the caller until ``now`` + ``lease_seconds``."""
        ...
