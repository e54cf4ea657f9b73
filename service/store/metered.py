"""An event store that counts its appends and their conflicts, around any other one.

Counting here rather than in each adapter keeps the adapters about storage, and counts what
every caller appends (commands, fairness records, bots) the same way.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from service.ports.event_store import (
    AppendResult,
    ConcurrencyConflict,
    EventStore,
    IdempotentAppend,
    NewEvent,
    Snapshot,
    StoredEvent,
    VerifyReport,
)
from service.ports.metrics import Metrics


class MeteredEventStore:
    def __init__(self, store: EventStore, metrics: Metrics) -> None:
        self._store = store
        self._metrics = metrics

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        try:
            result = await self._store.append(
                stream_id,
                events,
                expected_version=expected_version,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
            )
        except ConcurrencyConflict:
            self._metrics.append_conflict()
            raise
        self._metrics.appended(len(events))
        return result

    async def find_idempotent(self, idempotency_key: str) -> IdempotentAppend | None:
        return await self._store.find_idempotent(idempotency_key)

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]:
        return await self._store.read_stream(stream_id, after_version=after_version)

    async def read_all(self, *, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        return await self._store.read_all(after_position=after_position, limit=limit)

    async def read_streams_in_log(
        self, stream_ids: Collection[str], *, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        return await self._store.read_streams_in_log(
            stream_ids, after_position=after_position, limit=limit
        )

    async def stream_version(self, stream_id: str) -> int:
        return await self._store.stream_version(stream_id)

    async def latest_versions(
        self, stream_ids: Collection[str], types: Collection[str]
    ) -> dict[str, dict[str, int]]:
        return await self._store.latest_versions(stream_ids, types)

    async def verify_stream(self, stream_id: str) -> VerifyReport:
        return await self._store.verify_stream(stream_id)

    async def save_snapshot(
        self, stream_id: str, version: int, state_type: str, data: bytes
    ) -> None:
        await self._store.save_snapshot(stream_id, version, state_type, data)

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        return await self._store.load_snapshot(stream_id)

    async def every_match_blinded_from(self) -> int | None:
        return await self._store.every_match_blinded_from()
