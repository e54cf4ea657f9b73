"""An event store in a Python process, for unit tests and quick experiments.

It keeps every promise of the ``EventStore`` port that a single process can keep. No method
awaits between reading and writing, so on one event loop each call is atomic and the log order
is simply the order of appends.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Sequence

import msgspec

from adapters.memory.clock import Clock, utc_now
from service.errors import IdempotencyKeyReused
from service.ports.event_store import (
    AppendResult,
    ConcurrencyConflict,
    IdempotentAppend,
    MalformedEvent,
    NewEvent,
    Snapshot,
    StoredEvent,
    UnknownPosition,
    VerifyReport,
    check_append,
    check_page,
    check_snapshot,
)
from service.store.hash_chain import GENESIS, chain, request_fingerprint, verify_chain


class InMemoryEventStore:
    def __init__(self, clock: Clock = utc_now) -> None:
        """``clock`` stamps each event's ``recorded_at`` (PostgreSQL's is the commit's time)."""
        self._clock = clock
        self._log: list[StoredEvent] = []
        self._streams: dict[str, list[StoredEvent]] = {}
        self._keys: dict[str, IdempotentAppend] = {}
        self._snapshots: dict[str, Snapshot] = {}
        self._append_listeners: list[Callable[[str, int], None]] = []
        self._blinded_from = 0  # a log begun here is under the log tree's second leaf rule

    def on_append(self, listener: Callable[[str, int], None]) -> Callable[[], None]:
        """Call ``listener`` with the stream id and the version it reached after each append
        that writes; returns the function that stops it (what an in-memory wake-ups adapter
        hears appends by)."""
        self._append_listeners.append(listener)
        return lambda: self._append_listeners.remove(listener)

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        check_append(stream_id, events, expected_version)
        for event in events:
            _check_json(event)
        if fingerprint is None:
            fingerprint = request_fingerprint(stream_id, expected_version, events)
        if idempotency_key is not None and idempotency_key in self._keys:
            first = self._keys[idempotency_key]
            if first.fingerprint != fingerprint or first.result.stream_id != stream_id:
                raise IdempotencyKeyReused()
            return msgspec.structs.replace(first.result, replayed=True)
        stream = self._streams.get(stream_id, [])
        if len(stream) != expected_version:
            tail = stream[expected_version:]
            raise ConcurrencyConflict(stream_id, expected_version, len(stream), tail)
        recorded = self._record(stream_id, stream, events)
        self._streams[stream_id] = stream + recorded
        self._log.extend(recorded)
        result = AppendResult(
            stream_id,
            first_version=recorded[0].version,
            last_version=recorded[-1].version,
            positions=tuple(event.position for event in recorded),
            last_hash=recorded[-1].hash,
        )
        if idempotency_key is not None:
            self._keys[idempotency_key] = IdempotentAppend(fingerprint, result)
        for listener in list(self._append_listeners):
            listener(stream_id, result.last_version)
        return result

    async def find_idempotent(self, idempotency_key: str) -> IdempotentAppend | None:
        return self._keys.get(idempotency_key)

    def _record(
        self, stream_id: str, stream: list[StoredEvent], events: Sequence[NewEvent]
    ) -> list[StoredEvent]:
        previous = stream[-1].hash if stream else GENESIS
        version, position = len(stream) + 1, len(self._log) + 1
        hashes = chain(previous, stream_id, version, events)
        now = self._clock()
        return [
            StoredEvent(
                stream_id, version + i, position + i, e.type, e.schema_version, e.data, h, now
            )
            for i, (e, h) in enumerate(zip(events, hashes, strict=True))
        ]

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]:
        return self._streams.get(stream_id, [])[max(after_version, 0) :]

    async def read_all(self, *, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        check_page(after_position, limit)
        # Positions here are 1, 2, 3, ... in log order, so a position is also an index.
        if after_position > len(self._log):
            raise UnknownPosition(after_position)
        return self._log[after_position : after_position + limit]

    async def read_streams_in_log(
        self, stream_ids: Collection[str], *, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        check_page(after_position, limit)
        if after_position > len(self._log):
            raise UnknownPosition(after_position)
        wanted = set(stream_ids)
        found = (e for e in self._log[after_position:] if e.stream_id in wanted)
        return list(itertools.islice(found, limit))

    async def stream_version(self, stream_id: str) -> int:
        return len(self._streams.get(stream_id, []))

    async def latest_versions(
        self, stream_ids: Collection[str], types: Collection[str]
    ) -> dict[str, dict[str, int]]:
        wanted = set(types)
        found: dict[str, dict[str, int]] = {}
        for stream_id in set(stream_ids):
            for event in self._streams.get(stream_id, []):
                if event.type in wanted:
                    found.setdefault(stream_id, {})[event.type] = event.version
        return found

    async def verify_stream(self, stream_id: str) -> VerifyReport:
        stream = self._streams.get(stream_id, [])
        head_hash = stream[-1].hash if stream else GENESIS
        return verify_chain(stream_id, stream, len(stream), head_hash)

    async def save_snapshot(
        self, stream_id: str, version: int, state_type: str, data: bytes
    ) -> None:
        check_snapshot(version, await self.stream_version(stream_id))
        stored = self._snapshots.get(stream_id)
        if stored is None or stored.version <= version:
            self._snapshots[stream_id] = Snapshot(stream_id, version, state_type, data)

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        return self._snapshots.get(stream_id)

    async def every_match_blinded_from(self) -> int | None:
        return self._blinded_from

    def upgrade_leaf_rule(self) -> None:
        """What migration 0020 does to an upgraded database, for tests of a log whose first
        events a release before the second leaf rule wrote: they keep the first."""
        self._blinded_from = len(self._log)


def _check_json(event: NewEvent) -> None:
    try:
        msgspec.json.decode(event.data)
    except msgspec.DecodeError as error:
        raise MalformedEvent(f"{event.type}: data is not UTF-8 JSON ({error})") from error
