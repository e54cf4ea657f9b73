"""A match's event stream in domain terms: load its state, read its events, append to it.

Loading is a fold of the stream (``domain.fold``, the service's only fold). The events a
command adds are folded once, where they are decided, and appended with the state they lead
to, which becomes the cached state. Two things keep it cheap without ever trusting memory: a
snapshot every ``snapshot_every`` events (so a process that has never seen the match folds
only the tail), and a small per-process cache of recent states, which is only a starting
point: the tail after the cached version is always read from the store.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import OrderedDict
from collections.abc import Sequence

import msgspec

import domain
from domain import Event, MatchState, new_match
from service.ports.event_store import AppendResult, EventStore
from service.store.codec import from_record, to_record
from service.store.match_stream_names import MatchStream

# Snapshots of an older state shape are ignored (and the stream folded from the start).
STATE_TYPE = (
    "match_state:"
    + hashlib.sha256(msgspec.json.encode(msgspec.json.schema(MatchState))).hexdigest()[:16]
)

_state_encoder = msgspec.msgpack.Encoder()
_state_decoder = msgspec.msgpack.Decoder(MatchState)


class Loaded(msgspec.Struct, frozen=True):
    state: MatchState
    version: int
    # The append that reached ``version``, when this process has just made it: its position
    # and head hash let a receipt be signed without reading the event back.
    appended: AppendResult | None = None


MATCH_STREAM_PREFIX = MatchStream.TWO_PLAYER.value


def stream_id(match_id: str) -> str:
    return MatchStream.TWO_PLAYER.of(match_id)


def match_id_of(stream: str) -> str | None:
    """The match a stream id belongs to, or None if it is not a match's stream."""
    if not stream.startswith(MATCH_STREAM_PREFIX):
        return None
    try:
        return str(uuid.UUID(stream.removeprefix(MATCH_STREAM_PREFIX)))
    except ValueError:
        return None


class MatchStreams:
    def __init__(self, store: EventStore, *, snapshot_every: int = 50, cache_size: int = 2048):
        self.store = store
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: OrderedDict[str, Loaded] = OrderedDict()

    async def load(self, match_id: str) -> Loaded:
        start = (
            self._cache.get(match_id) or await self._snapshot(match_id) or Loaded(new_match(), 0)
        )
        tail = await self.store.read_stream(stream_id(match_id), after_version=start.version)
        loaded = fold(start, [from_record(r) for r in tail])
        self._remember(match_id, loaded)
        return loaded

    async def load_at(self, match_id: str, version: int) -> Loaded:
        """The state right after ``version`` (an idempotent retry is answered with it)."""
        start = await self._snapshot(match_id)
        if start is None or start.version > version:
            start = Loaded(new_match(), 0)
        tail = await self.store.read_stream(stream_id(match_id), after_version=start.version)
        return fold(start, [from_record(r) for r in tail if r.version <= version])

    async def read_events(self, match_id: str, *, after_version: int) -> list[tuple[int, Event]]:
        records = await self.store.read_stream(stream_id(match_id), after_version=after_version)
        return [(record.version, from_record(record)) for record in records]

    async def append(
        self,
        match_id: str,
        start: Loaded,
        events: Sequence[Event],
        *,
        state: MatchState | None = None,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> tuple[Loaded, AppendResult]:
        """Append ``events`` decided on ``start``; raises the store's ``ConcurrencyConflict``.

        ``state`` is the state the events lead to, when the caller has folded them already.
        Under an idempotency key the store may answer with the first append made under it:
        then the state returned is the one right after that append.
        """
        result = await self.store.append(
            stream_id(match_id),
            [to_record(event) for event in events],
            expected_version=start.version,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
        )
        if (result.first_version, result.last_version) != (
            start.version + 1,
            start.version + len(events),
        ):
            # The first append under this key was decided on another version than ``start``.
            first = await self.load_at(match_id, result.last_version)
            return Loaded(first.state, first.version, result), result
        folded = state if state is not None else fold(start, events).state
        loaded = Loaded(folded, start.version + len(events), result)
        self._remember(match_id, loaded)
        if loaded.version // self._snapshot_every > start.version // self._snapshot_every:
            await self.store.save_snapshot(
                stream_id(match_id), loaded.version, STATE_TYPE, _state_encoder.encode(loaded.state)
            )
        return loaded, result

    async def _snapshot(self, match_id: str) -> Loaded | None:
        snapshot = await self.store.load_snapshot(stream_id(match_id))
        if snapshot is None or snapshot.state_type != STATE_TYPE:
            return None
        return Loaded(_state_decoder.decode(snapshot.data), snapshot.version)

    def _remember(self, match_id: str, loaded: Loaded) -> None:
        cached = self._cache.get(match_id)
        if cached is None or cached.version <= loaded.version:
            self._cache[match_id] = loaded
        self._cache.move_to_end(match_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


def fold(start: Loaded, events: Sequence[Event]) -> Loaded:
    """``start`` moved on by ``events``, the events right after it."""
    return Loaded(domain.fold(events, start.state), start.version + len(events))
