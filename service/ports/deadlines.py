"""The deadlines port: the turn clocks' pending deadlines, as the committed events set them.

A deadline belongs to a stream (a match's): its newest ``deadline_set`` event with a seat on the
clock sets it, and a ``deadline_set`` with nobody on it, a ``match_won`` or a ``match_ended``
removes it. The store keeps it in step with the events, so nothing outside the append writes
a deadline. A server claims due deadlines under a lease; what it then appends is checked
against the stream's version, so a claim decides who tries, never what applies.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

DEADLINE_EVENTS = ("deadline_set", "match_won", "match_ended")


class Deadlines(Protocol):
    async def next_wakeup(self) -> datetime | None:
        """When a deadline is next worth claiming: the earliest due time, or for a leased one
        the end of its lease if that is later; None when no deadline is pending."""
        ...

    async def claim_due(self, now: datetime, *, limit: int, lease_seconds: float) -> list[str]:
        """Up to ``limit`` streams whose deadline is due at ``now`` and not under a lease,
        leased to the caller until ``now`` + ``lease_seconds``; a stream another server is
        claiming at this instant is skipped, not waited for."""
        ...

    async def pending(self) -> int:
        """How many deadlines are pending."""
        ...
