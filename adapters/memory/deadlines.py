"""Deadlines in a Python process, read from an in-memory event store's log as PostgreSQL's
trigger keeps them: the newest ``deadline_set`` of a stream sets its deadline, one with nobody
on the clock, a ``match_won`` or a ``match_ended`` removes it."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from adapters.memory.event_store import InMemoryEventStore
from service.ports.deadlines import DEADLINE_EVENTS


class _Due(msgspec.Struct):
    due_at: datetime
    lease_until: datetime | None = None


class _DeadlineBody(msgspec.Struct):
    due_at: datetime | None = None


_decode = msgspec.json.Decoder(_DeadlineBody).decode


class InMemoryDeadlines:
    def __init__(self, store: InMemoryEventStore) -> None:
        self._store = store
        self._position = 0
        self._due: dict[str, _Due] = {}

    async def _catch_up(self) -> None:
        while page := await self._store.read_all(after_position=self._position):
            for event in page:
                self._position = max(self._position, event.position)
                if event.type not in DEADLINE_EVENTS:
                    continue
                due_at = _decode(event.data).due_at if event.type == "deadline_set" else None
                if due_at is None:
                    self._due.pop(event.stream_id, None)
                else:
                    self._due[event.stream_id] = _Due(due_at)

    async def next_wakeup(self) -> datetime | None:
        await self._catch_up()
        times = [
            max(due.due_at, due.lease_until) if due.lease_until else due.due_at
            for due in self._due.values()
        ]
        return min(times, default=None)

    async def claim_due(self, now: datetime, *, limit: int, lease_seconds: float) -> list[str]:
        await self._catch_up()
        due = sorted(
            (d.due_at, stream)
            for stream, d in self._due.items()
            if d.due_at <= now and (d.lease_until is None or d.lease_until <= now)
        )[:limit]
        for _, stream in due:
            self._due[stream].lease_until = now + timedelta(seconds=lease_seconds)
        return [stream for _, stream in due]

    async def pending(self) -> int:
        await self._catch_up()
        return len(self._due)
