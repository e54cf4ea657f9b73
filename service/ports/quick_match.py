"""The quick-match port: players waiting for opponents who asked for the same options and
table size (both in the options key).

Asking is one atomic step per options key: the asker is paired with the players who have
waited longest for those options (and have not given up or timed out), as many as the table
needs, or waits. Any number of askers
at once, in any number of processes, pair each exactly once. Time is the caller's: every call
says what time it is now.

A pairing is kept as a pending pair until its match is made, claimed by the asker who paired
(until ``hold_until``) so that nobody else makes it meanwhile. A process that dies between
pairing and making the match leaves the pair pending; once the claim lapses, whoever claims it
next makes the match, under the id the pairing promised. A claim is one atomic step: two
processes repairing at once never both hold the same pair.
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
    """The asker was paired: the waiting players take the first seats of ``match_id`` in the
    order they asked, the asker the last."""

    match_id: str
    waiting_ids: list[str]


class PendingPair(msgspec.Struct, frozen=True, kw_only=True):
    """A pairing whose match is not made yet: ``waiting_ids`` take seats 0, 1, ... in order,
    ``asker_id`` the last seat."""

    match_id: str
    options_key: str
    waiting_ids: list[str]
    asker_id: str

    @property
    def player_ids(self) -> list[str]:
        """By seat."""
        return [*self.waiting_ids, self.asker_id]


class QuickMatchQueue(Protocol):
    async def ask(
        self,
        player_id: str,
        options_key: str,
        *,
        now: datetime,
        expires_at: datetime,
        match_id: str,
        hold_until: datetime,
        seats: int = 2,
    ) -> Paired | None:
        """Pair the asker into ``match_id`` with the ``seats - 1`` longest-waiting other
        players of the same key whose entries have not expired, or (fewer waiting) queue the
        asker until ``expires_at`` (None). Every ask of a key gives the same ``seats``.
        A pairing is pending, claimed by the asker until ``hold_until``.
        Raises ``AlreadyQueued`` if the asker is waiting already (for any options)."""
        ...

    async def claim_pending(
        self, *, now: datetime, hold_until: datetime, match_id: str | None = None
    ) -> list[PendingPair]:
        """Claim until ``hold_until`` every pending pair (or only that of ``match_id``) whose
        claim has lapsed by ``now``: the caller then makes their matches."""
        ...

    async def made(self, match_id: str, *, now: datetime) -> None:
        """The pair's match is made: it is pending no longer."""
        ...

    async def entry(self, player_id: str) -> QueueEntry | None: ...

    async def cancel(self, player_id: str, *, now: datetime) -> bool:
        """Stop the player's wait, if they are waiting now: whether they were."""
        ...
