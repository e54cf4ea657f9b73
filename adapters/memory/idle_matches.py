"""Idle matches in a Python process, read from an in-memory event store's log: the time each
match stream's last event was stored, and whether it has ended."""

from __future__ import annotations

from datetime import datetime, timedelta

from adapters.memory.event_store import InMemoryEventStore
from domain.events import MATCH_ENDING_TYPES
from domain.tables.events import FormatMatchWon
from service.ports.idle_matches import IdleMatch
from service.store.match_streams import KINDS

# Every match stream's, at every table size.
PREFIXES = tuple(kind.prefix for kind in KINDS)
ENDING_TYPES = (*MATCH_ENDING_TYPES, FormatMatchWon.__struct_config__.tag)


class _Head:
    def __init__(self, version: int, recorded_at: datetime) -> None:
        self.version = version
        self.recorded_at = recorded_at
        self.ended = False
        self.lease_until: datetime | None = None


class InMemoryIdleMatches:
    def __init__(self, store: InMemoryEventStore) -> None:
        self._store = store
        self._position = 0
        self._heads: dict[str, _Head] = {}

    async def _catch_up(self) -> None:
        while page := await self._store.read_all(after_position=self._position):
            for event in page:
                self._position = max(self._position, event.position)
                if not event.stream_id.startswith(PREFIXES):
                    continue
                head = self._heads.setdefault(event.stream_id, _Head(0, event.recorded_at))
                head.version, head.recorded_at = event.version, event.recorded_at
                head.ended = head.ended or event.type in ENDING_TYPES

    async def claim_idle(
        self, idle_since: datetime, now: datetime, *, limit: int, lease_seconds: float
    ) -> list[IdleMatch]:
        await self._catch_up()
        idle = sorted(
            (head.recorded_at, stream)
            for stream, head in self._heads.items()
            if not head.ended
            and head.recorded_at <= idle_since
            and (head.lease_until is None or head.lease_until <= now)
        )[:limit]
        claimed = []
        for _, stream in idle:
            head = self._heads[stream]
            head.lease_until = now + timedelta(seconds=lease_seconds)
            claimed.append(IdleMatch(stream, head.version))
        return claimed
