"""The quick-match queue in a Python process: no method awaits between reading and writing,
so on one event loop each ask is atomic."""

from __future__ import annotations

from datetime import datetime

import msgspec

from service.errors import AlreadyQueued
from service.ports.quick_match import Paired, PendingPair, QueueEntry


class InMemoryQuickMatchQueue:
    def __init__(self) -> None:
        self._entries: dict[str, QueueEntry] = {}
        self._pending: dict[str, tuple[PendingPair, datetime]] = {}  # with its claim's end

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
        mine = self._entries.get(player_id)
        if mine is not None and _waiting(mine, now):
            raise AlreadyQueued("this player is already waiting for a quick match")
        waiting = sorted(
            (
                entry
                for entry in self._entries.values()
                if entry.options_key == options_key and _waiting(entry, now)
            ),
            key=lambda entry: (entry.requested_at, entry.player_id),
        )
        mine = QueueEntry(
            player_id=player_id, options_key=options_key, requested_at=now, expires_at=expires_at
        )
        if len(waiting) < seats - 1:
            self._entries[player_id] = mine
            return None
        table = waiting[: seats - 1]
        for seat, entry in enumerate(table):
            self._entries[entry.player_id] = _paired(entry, match_id, seat)
        self._entries[player_id] = _paired(mine, match_id, len(table))
        waiting_ids = [entry.player_id for entry in table]
        pair = PendingPair(
            match_id=match_id, options_key=options_key, waiting_ids=waiting_ids, asker_id=player_id
        )
        self._pending[match_id] = (pair, hold_until)
        return Paired(match_id, waiting_ids)

    async def claim_pending(
        self, *, now: datetime, hold_until: datetime, match_id: str | None = None
    ) -> list[PendingPair]:
        claimed = [
            pair
            for pair, until in self._pending.values()
            if until <= now and match_id in (None, pair.match_id)
        ]
        for pair in claimed:
            self._pending[pair.match_id] = (pair, hold_until)
        return claimed

    async def made(self, match_id: str, *, now: datetime) -> None:
        self._pending.pop(match_id, None)

    async def entry(self, player_id: str) -> QueueEntry | None:
        return self._entries.get(player_id)

    async def cancel(self, player_id: str, *, now: datetime) -> bool:
        entry = self._entries.get(player_id)
        if entry is None or not _waiting(entry, now):
            return False
        del self._entries[player_id]
        return True


def _waiting(entry: QueueEntry, now: datetime) -> bool:
    return entry.match_id is None and entry.expires_at > now


def _paired(entry: QueueEntry, match_id: str, seat: int) -> QueueEntry:
    return msgspec.structs.replace(entry, match_id=match_id, seat=seat)
