"""A match's event stream in domain terms: load its state, read its events, append to it.

One class serves matches of every table size, the way an event-sourcing repository serves
every aggregate: a ``StreamKind`` says what differs (the stream prefix, the events' codec, the
initial state, the fold and the snapshots' state type), and ``KINDS`` lists every kind of match
stream, so a reader of the global log knows a match's stream by asking ``match_id_of``.

Loading is a fold of the stream (the domain's fold, the service's only fold). The events a
command adds are folded once, where they are decided, and appended with the state they lead
to, which becomes the cached state. Two things keep it cheap: a snapshot every
``snapshot_every`` events (so a process that has never seen the match folds only the tail),
and a small per-process cache of recent states.

``load`` trusts the cache only as a starting point: it always reads the tail after it. A
command does not read first (``cached``): it is decided on the cached state, and the append's
version check is what proves that state current. When another process appended meanwhile, the
append's conflict carries the events after the cached version, in the same round trip, and
``caught_up`` folds them so the command is decided again on the match as it is. A stale state
therefore costs a second append, never a wrong one: nothing is appended but at the version it
was decided on. A read (a seat's view between turns) has no append to prove its state current:
``load`` reads the tail. ``current`` answers from the cache without reading when the wake-ups
prove the cached state as new as every append heard of (``heard_versions``) and the reader
names a version it knows that the state has reached: the wake-up of a command another process
has just answered may still be on its way, and the client that sent it must see it here.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, overload

import msgspec
from cachetools import LRUCache
from typing_extensions import TypeVar

from domain import Event, MatchState
from domain import match_rules as rules
from domain.match_rules import MatchRules
from domain.tables import FormatEvent, TablesState
from service.ports.event_store import (
    AppendResult,
    ConcurrencyConflict,
    EventStore,
    NewEvent,
    StoredEvent,
)
from service.store.codec import TABLE_EVENTS, TWO_SEAT_EVENTS, Codec
from service.store.heard_versions import HeardVersions
from service.store.match_stream_names import MatchStream

S = TypeVar("S", default=MatchState)
E = TypeVar("E", default=Event)
V = TypeVar("V")


class Loaded(msgspec.Struct, Generic[S], frozen=True):
    state: S
    version: int
    # The append that reached ``version``, when this process has just made it: its position
    # and head hash let a receipt be signed without reading the event back.
    appended: AppendResult | None = None
    # An idempotent retry's answer: the first attempt's append, which the match may have
    # moved on from since.
    retried: bool = False


@dataclass(frozen=True)
class StreamKind(Generic[S, E]):
    """What one kind of match stream is made of. ``state_name`` and a hash of the state's
    shape name its snapshots: a snapshot of an older shape is ignored (and the stream folded
    from the start)."""

    prefix: str
    state: type[S]
    state_name: str
    rules: MatchRules[S, E]  # what the match's events mean (``domain.match_rules``)
    codec: Codec[E]
    snapshot_type: str = field(init=False)

    @property
    def initial(self) -> Callable[[], S]:
        return self.rules.initial

    @property
    def fold(self) -> Callable[[Iterable[E], S], S]:
        return self.rules.fold

    def __post_init__(self) -> None:
        shape = hashlib.sha256(msgspec.json.encode(msgspec.json.schema(self.state)))
        object.__setattr__(self, "snapshot_type", f"{self.state_name}:{shape.hexdigest()[:16]}")

    def stream_id(self, match_id: str) -> str:
        return f"{self.prefix}{match_id}"

    def match_id_of(self, stream: str) -> str | None:
        """The match a stream id belongs to, or None if it is not a stream of this kind."""
        if not stream.startswith(self.prefix):
            return None
        try:
            return str(uuid.UUID(stream.removeprefix(self.prefix)))
        except ValueError:
            return None


TWO_SEATS: StreamKind[MatchState, Event] = StreamKind(
    prefix=MatchStream.TWO_PLAYER.value,
    state=MatchState,
    state_name="match_state",
    rules=rules.TWO_SEATS,
    codec=TWO_SEAT_EVENTS,
)
THREE_OR_FOUR_SEATS: StreamKind[TablesState, FormatEvent] = StreamKind(
    prefix=MatchStream.FORMAT.value,
    state=TablesState,
    state_name="format_state",
    rules=rules.THREE_SEATS,  # its state and fold: those of four seats too
    codec=TABLE_EVENTS,
)
# Every kind of a match's own event stream (the prefixes are named with the match's other
# streams in ``match_stream_names``). No prefix is another's, so a stream is of one kind.
KINDS: tuple[StreamKind[Any, Any], ...] = (TWO_SEATS, THREE_OR_FOUR_SEATS)


def stream_id(match_id: str) -> str:
    """A two-player match's stream."""
    return TWO_SEATS.stream_id(match_id)


def kind_for(seats: int) -> StreamKind[Any, Any]:
    """The kind of stream a match of ``seats`` seats keeps: the one its rules choose."""
    return TWO_SEATS if rules.rules_for(seats) is rules.TWO_SEATS else THREE_OR_FOUR_SEATS


def kind_of(stream: str) -> StreamKind[Any, Any] | None:
    """The kind of match stream ``stream`` is, or None if it is no match's stream."""
    for kind in KINDS:
        if kind.match_id_of(stream) is not None:
            return kind
    return None


def match_id_of(stream: str) -> str | None:
    """The match a stream id belongs to, at any table size, or None if it is no match's."""
    for kind in KINDS:
        if (match_id := kind.match_id_of(stream)) is not None:
            return match_id
    return None


_STATE_ENCODER = msgspec.msgpack.Encoder()
_STATE_DECODERS: dict[type[Any], msgspec.msgpack.Decoder[Any]] = {}


# How long a cached state stays provable after the read or append it came from: a wake-up can
# be lost (its sender's connection dropped, or its process died between a commit and the
# wake-up), and a lost one must not leave a state taken for current for longer than this.
PROVEN_SECONDS = 1.0


def _state_decoder(state: type[Any]) -> msgspec.msgpack.Decoder[Any]:
    """One decoder per state type, made once: making one costs more than a load."""
    if state not in _STATE_DECODERS:
        _STATE_DECODERS[state] = msgspec.msgpack.Decoder(state)
    return _STATE_DECODERS[state]


class _Forgetting(LRUCache[str, V]):
    """The most recently used matches' states; ``forget`` is told of each match pushed out,
    so that what else is kept of it goes too."""

    def __init__(self, size: int, forget: Callable[[str], None]) -> None:
        super().__init__(size)
        self._forget = forget

    def popitem(self) -> tuple[str, V]:
        match_id, kept = super().popitem()
        self._forget(match_id)
        return match_id, kept


class MatchStreams(Generic[S, E]):
    @overload
    def __init__(
        self: MatchStreams[MatchState, Event],
        store: EventStore,
        *,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        heard: HeardVersions | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None: ...

    @overload
    def __init__(
        self,
        store: EventStore,
        kind: StreamKind[S, E],
        *,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        heard: HeardVersions | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None: ...

    def __init__(
        self,
        store: EventStore,
        kind: StreamKind[Any, Any] = TWO_SEATS,
        *,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        heard: HeardVersions | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``heard``: what the wake-ups tell of each stream's version; without it (or while it
        does not listen) ``current`` proves nothing and every read reads. ``monotonic``: the
        seconds ``current`` counts a state's age by (``PROVEN_SECONDS``)."""
        self.store = store
        self.kind: StreamKind[S, E] = kind
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: _Forgetting[Loaded[S]] = _Forgetting(cache_size, self._forget)
        self._heard = heard
        self._monotonic = monotonic
        # The listening term each cached state was taken in (``HeardVersions.term``), and when.
        self._terms: dict[str, tuple[int | None, float]] = {}
        # The version this process's last append to each match reached: a conflict with an
        # append made here after a command's start is a race between two commands handled
        # here, not a stale cache (``caught_up``).
        self._written: dict[str, int] = {}
        # Looked up once: a command passes here a few times, and each lookup costs.
        self._prefix = kind.prefix
        self._decode: Callable[[StoredEvent], E] = kind.codec.from_record
        self._encode: Callable[[E], NewEvent] = kind.codec.to_record
        self._fold: Callable[[Iterable[E], S], S] = kind.fold
        self._state_decoder = _state_decoder(kind.state)

    def stream_id(self, match_id: str) -> str:
        return f"{self._prefix}{match_id}"

    def empty(self) -> Loaded[S]:
        """A match before its first event."""
        return Loaded(self.kind.initial(), 0)

    def of_kind(self, kind: StreamKind[Any, Any]) -> MatchStreams[Any, Any]:
        """Streams of another kind over the same store, kept the same way."""
        if kind is self.kind:
            return self
        return MatchStreams(
            self.store,
            kind,
            snapshot_every=self._snapshot_every,
            cache_size=self._cache_size,
            heard=self._heard,
            monotonic=self._monotonic,
        )

    def cached(self, match_id: str) -> Loaded[S] | None:
        """This process's latest state of the match, unread: maybe stale (an append decided
        on it will say so, see ``caught_up``); None when none is cached."""
        cached = self._cache.get(match_id)
        if cached is None:
            return None
        return Loaded(cached.state, cached.version)

    def current(self, match_id: str, known: int) -> Loaded[S] | None:
        """The cached state, unread, when it is provably current: at ``known`` (a version the
        reader has seen) or later, and at every version the wake-ups have told of since it was
        cached, at most ``PROVEN_SECONDS`` ago; None otherwise (then ``load``)."""
        cached = self._cache.get(match_id)
        if cached is None or cached.version < known or self._heard is None:
            return None
        term, at = self._terms.get(match_id, (None, 0.0))
        if self._monotonic() - at > PROVEN_SECONDS or not self._heard.proves(
            self.stream_id(match_id), cached.version, term
        ):
            return None
        return Loaded(cached.state, cached.version)

    async def caught_up(
        self, match_id: str, start: Loaded[S], conflict: ConcurrencyConflict
    ) -> Loaded[S] | None:
        """The match as it is, after an append decided on ``start`` met ``conflict``; None when
        an append made by this process since ``start`` is what moved it. Two commands handled
        here at once are then a race, and its loser is told so, as when every command read
        first. Otherwise ``start`` was stale (another process appended): the events after it
        come with the conflict, or are read when the store could not send them whole."""
        if self._written.get(match_id, 0) > start.version:
            return None
        if conflict.tail is not None and conflict.expected == start.version:
            decode = self._decode
            caught = self.fold(start, [decode(record) for record in conflict.tail])
            self._remember(match_id, caught)
            return caught
        return await self.load(match_id)

    async def load(self, match_id: str) -> Loaded[S]:
        term = self._term()  # before the read: an append heard of during it may be missing
        start = self._cache.get(match_id) or await self._snapshot(match_id) or self.empty()
        tail = await self.store.read_stream(self.stream_id(match_id), after_version=start.version)
        decode = self._decode
        loaded = self.fold(start, [decode(record) for record in tail])
        self._remember(match_id, loaded, term)
        return loaded

    async def load_at(self, match_id: str, version: int) -> Loaded[S]:
        """The state right after ``version`` (an idempotent retry is answered with it)."""
        start = await self._snapshot(match_id)
        if start is None or start.version > version:
            start = self.empty()
        tail = await self.read_events(match_id, after_version=start.version)
        return self.fold(start, [event for at, event in tail if at <= version])

    async def read_events(self, match_id: str, *, after_version: int) -> list[tuple[int, E]]:
        records = await self.store.read_stream(
            self.stream_id(match_id), after_version=after_version
        )
        decode = self._decode
        return [(record.version, decode(record)) for record in records]

    async def append(
        self,
        match_id: str,
        start: Loaded[S],
        events: Sequence[E],
        *,
        state: S | None = None,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> tuple[Loaded[S], AppendResult]:
        """Append ``events`` decided on ``start``; raises the store's ``ConcurrencyConflict``.

        ``state`` is the state the events lead to, when the caller has folded them already.
        Under an idempotency key the store may answer with the first append made under it:
        then the state returned is the one right after that append (``retried``).
        """
        encode = self._encode
        term = self._term()
        result = await self.store.append(
            self.stream_id(match_id),
            [encode(event) for event in events],
            expected_version=start.version,
            idempotency_key=idempotency_key,
            fingerprint=fingerprint,
        )
        if result.replayed:
            # The first append under this key is the answer: its events, not these (decided
            # again, maybe on another version, maybe at another time), are the stored ones.
            first = await self.load_at(match_id, result.last_version)
            return Loaded(first.state, first.version, result, retried=True), result
        folded = state if state is not None else self.fold(start, events).state
        loaded = Loaded(folded, start.version + len(events), result)
        self._written[match_id] = max(self._written.get(match_id, 0), loaded.version)
        self._remember(match_id, loaded, term)
        if loaded.version // self._snapshot_every > start.version // self._snapshot_every:
            await self.store.save_snapshot(
                self.stream_id(match_id),
                loaded.version,
                self.kind.snapshot_type,
                _STATE_ENCODER.encode(loaded.state),
            )
        return loaded, result

    def fold(self, start: Loaded[S], events: Sequence[E]) -> Loaded[S]:
        """``start`` moved on by ``events``, the events right after it."""
        return Loaded(self._fold(events, start.state), start.version + len(events))

    async def _snapshot(self, match_id: str) -> Loaded[S] | None:
        snapshot = await self.store.load_snapshot(self.stream_id(match_id))
        if snapshot is None or snapshot.state_type != self.kind.snapshot_type:
            return None
        return Loaded(self._state_decoder.decode(snapshot.data), snapshot.version)

    def _term(self) -> tuple[int | None, float]:
        return (None if self._heard is None else self._heard.term(), self._monotonic())

    def _remember(
        self, match_id: str, loaded: Loaded[S], term: tuple[int | None, float] = (None, 0.0)
    ) -> None:
        cached = self._cache.get(match_id)
        if cached is None or cached.version <= loaded.version:
            self._cache[match_id] = loaded
            self._terms[match_id] = term

    def _forget(self, match_id: str) -> None:
        self._written.pop(match_id, None)
        self._terms.pop(match_id, None)
