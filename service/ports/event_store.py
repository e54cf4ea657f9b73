"""The event store port: what the service needs from wherever events are kept.

The store is generic over payloads. An event is a type name, a schema version and its
canonical bytes (UTF-8 JSON, the form that is hashed); the service turns domain events into
these records and back (see ``service.store.upcasting``). Versions are 1-based per stream, and
``expected_version=0`` means "this stream must not exist yet".

The global log is ordered, and every event has a ``position`` that identifies it there. A
subscriber pages with ``read_all(after_position=<the last position it saw>)``. Positions are
unique but need not increase along the log (concurrent writers draw them before they commit);
treat one as a cursor, never as a count.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

import msgspec


class NewEvent(msgspec.Struct, frozen=True):
    type: str
    schema_version: int
    data: bytes


class StoredEvent(msgspec.Struct, frozen=True):
    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: bytes
    hash: bytes
    recorded_at: datetime


class AppendResult(msgspec.Struct, frozen=True):
    stream_id: str
    first_version: int
    last_version: int
    positions: tuple[int, ...]
    # The hash of the event at last_version, when the store returns it with the append (not
    # for a replayed idempotency key): a receipt then signs it without reading it back.
    last_hash: bytes | None = None
    # True when nothing was written: the answer is the first append made under the same
    # idempotency key, which may differ from the events sent this time (their timestamps).
    replayed: bool = False


class IdempotentAppend(msgspec.Struct, frozen=True):
    """What the store keeps with an idempotency key: the request it was first used for (its
    fingerprint) and what that request appended."""

    fingerprint: bytes
    result: AppendResult


class Snapshot(msgspec.Struct, frozen=True):
    stream_id: str
    version: int
    state_type: str
    data: bytes


class BrokenLink(msgspec.Struct, frozen=True):
    version: int
    problem: str


class VerifyReport(msgspec.Struct, frozen=True):
    stream_id: str
    events_checked: int
    broken: BrokenLink | None = None

    @property
    def ok(self) -> bool:
        return self.broken is None

    def raise_if_broken(self) -> None:
        if self.broken is not None:
            raise ChainBroken(self.stream_id, self.broken)


class EventStoreError(Exception):
    """Anything the event store refuses."""


class ConcurrencyConflict(EventStoreError):  # noqa: N818  (named for what happened)
    """The stream is not at the expected version. ``tail``, when the store could tell it in
    the same answer, is every event after the expected version up to ``current``: a caller
    that decided on a stale state folds it and decides again without reading first."""

    def __init__(
        self,
        stream_id: str,
        expected: int,
        current: int,
        tail: Sequence[StoredEvent] | None = None,
    ) -> None:
        super().__init__(
            f"stream {stream_id!r} is at version {current}, not the expected version {expected}"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.current = current
        whole = tail is not None and [e.version for e in tail] == list(
            range(expected + 1, current + 1)
        )
        self.tail: tuple[StoredEvent, ...] | None = tuple(tail) if whole and tail else None


class UnknownPosition(EventStoreError, LookupError):  # noqa: N818
    def __init__(self, position: int) -> None:
        super().__init__(f"no event has position {position}: use a position read from the log")
        self.position = position


class MalformedEvent(EventStoreError, ValueError):  # noqa: N818
    """The append itself is wrong: no events, a bad version number, or data that is not JSON."""


class InvalidSnapshot(EventStoreError, ValueError):  # noqa: N818
    pass


class ChainBroken(EventStoreError):  # noqa: N818
    def __init__(self, stream_id: str, link: BrokenLink) -> None:
        super().__init__(
            f"stream {stream_id!r} is broken at version {link.version}: {link.problem}"
        )
        self.stream_id = stream_id
        self.link = link


class EventStore(Protocol):
    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        """Append atomically, or raise ``ConcurrencyConflict`` naming the current version and,
        where the store can tell them in the same answer, the events after the expected one.

        ``fingerprint`` names the request an idempotency key stands for; by default it is the
        append itself (stream, expected version and events), but a caller may name a request
        that is decided anew on each attempt. A retry with the same key, stream and fingerprint
        returns the first result (``replayed``) and writes nothing, whatever it would append
        now; the same key
        with another fingerprint or stream raises ``service.errors.IdempotencyKeyReused``.
        """
        ...

    async def find_idempotent(self, idempotency_key: str) -> IdempotentAppend | None:
        """The request an idempotency key was first used for and its result; None if unused."""
        ...

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]: ...

    async def read_all(self, *, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The next page of the global log after the event at ``after_position`` (0: the start).

        An event that commits later never appears before one already returned.
        """
        ...

    async def read_streams_in_log(
        self, stream_ids: Collection[str], *, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        """The events of ``stream_ids`` that ``read_all`` pages give after ``after_position``,
        in the same order, at most ``limit``: read by stream, not by scanning the log, so its
        cost does not grow with the other streams' events."""
        ...

    async def stream_version(self, stream_id: str) -> int: ...

    async def latest_versions(
        self, stream_ids: Collection[str], types: Collection[str]
    ) -> dict[str, dict[str, int]]:
        """For each of ``stream_ids``, the version of its latest event of each of ``types``,
        by stream id and then type; a stream or type with no such event is left out."""
        ...

    async def verify_stream(self, stream_id: str) -> VerifyReport: ...

    async def save_snapshot(
        self, stream_id: str, version: int, state_type: str, data: bytes
    ) -> None:
        """Keep the newest snapshot of a stream; an older one than that stored is ignored."""
        ...

    async def load_snapshot(self, stream_id: str) -> Snapshot | None: ...

    async def every_match_blinded_from(self) -> int | None:
        """Where the log tree's second leaf rule starts (``service.audit.log_tree``): the
        number of events at the start of the global log that a release before it wrote. Those
        keep the first rule; every later event of a match's stream is blinded. 0 for a log
        begun under the second rule; None for a store that has no record of it (a database
        whose schema predates it, where every event was written under the first rule)."""
        ...


def check_append(stream_id: str, events: Sequence[NewEvent], expected_version: int) -> None:
    """The checks every adapter makes before it writes, so all refuse the same appends."""
    if not stream_id:
        raise MalformedEvent("a stream id must not be empty")
    if not events:
        raise MalformedEvent(f"nothing to append to stream {stream_id!r}")
    if expected_version < 0:
        raise MalformedEvent(f"expected version {expected_version} is below 0")
    for event in events:
        if not event.type:
            raise MalformedEvent("an event type must not be empty")
        if event.schema_version < 1:
            raise MalformedEvent(f"{event.type}: schema version {event.schema_version} is below 1")


def check_snapshot(version: int, stream_version: int) -> None:
    if version < 1:
        raise InvalidSnapshot(f"a snapshot needs a version of at least 1, not {version}")
    if version > stream_version:
        raise InvalidSnapshot(
            f"a snapshot at version {version} is ahead of its stream (version {stream_version})"
        )


def check_page(after_position: int, limit: int) -> None:
    if after_position < 0:
        raise UnknownPosition(after_position)
    if limit < 1:
        raise ValueError(f"a page holds at least one event, not {limit}")
