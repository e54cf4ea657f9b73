"""The quick-match port: players waiting for an opponent who asked for the same options.

Asking is one atomic step per options key: the asker is paired with the player who has waited
longest for those options (and has not given up or timed out), or waits. Any number of askers
at once, in any number of processes, pair each exactly once. Time is the caller's: every call
says what time it is now.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import msgspec


class QueueEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A player's latest ask; ``match_id`` and ``seat`` once paired."""

    player_id: str
    options_key: str
    requested_at: datetime
    expires_at: datetime
    match_id: str | None = None
    seat: int | None = None


class Paired(msgspec.Struct, frozen=True):
    """The asker was paired: the waiting opponent takes seat 0 of ``match_id``, the asker 1."""

    match_id: str
    opponent_id: str


class QuickMatchQueue(Protocol):
    async def ask(
        self,
        player_id: str,
        options_key: str,
        *,
        now: datetime,
        expires_at: datetime,
        match_id: str,
    ) -> Paired | None:
        """Pair the asker into ``match_id`` with the longest-waiting other player of the same
        key whose entry has not expired, or queue the asker until ``expires_at`` (None).
        Raises ``AlreadyQueued`` if the asker is waiting already (for any options)."""
        ...

    async def entry(self, player_id: str) -> QueueEntry | None: ...

    async def cancel(self, player_id: str, *, now: datetime) -> bool:
        """Stop the player's wait, if they are waiting now: whether they were."""
        ...
