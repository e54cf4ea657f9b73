"""The hash chain that makes a stream tamper-evident, and the fingerprint of an append request.

Each event's hash is ``sha256(previous hash || stream id || version || type || schema version
|| data)``; the first event of a stream chains to 32 zero bytes. Every variable-length field
is preceded by its length, so no two different events encode to the same bytes. Both
adapters chain an append's events here (``chain``) and hand the database the hashes to store;
releases before migration 0021 computed them inside PostgreSQL with the same formula, and
verification recomputes every link here whoever wrote it.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence

from service.ports.event_store import BrokenLink, NewEvent, StoredEvent, VerifyReport

GENESIS = bytes(32)


def _field(value: bytes) -> bytes:
    return struct.pack(">I", len(value)) + value


def link_hash(
    previous: bytes, stream_id: str, version: int, type: str, schema_version: int, data: bytes
) -> bytes:
    return hashlib.sha256(
        previous
        + _field(stream_id.encode())
        + struct.pack(">q", version)
        + _field(type.encode())
        + struct.pack(">i", schema_version)
        + _field(data)
    ).digest()


def chain(
    previous: bytes, stream_id: str, first_version: int, events: Iterable[NewEvent]
) -> list[bytes]:
    """The hashes of events appended from ``first_version`` on, after a head hashed ``previous``."""
    hashes = []
    for version, event in enumerate(events, first_version):
        previous = link_hash(
            previous, stream_id, version, event.type, event.schema_version, event.data
        )
        hashes.append(previous)
    return hashes


def request_fingerprint(stream_id: str, expected_version: int, events: Iterable[NewEvent]) -> bytes:
    """What an idempotent retry must repeat exactly: target, expected version and events."""
    digest = hashlib.sha256(_field(stream_id.encode()) + struct.pack(">q", expected_version))
    for event in events:
        digest.update(
            _field(event.type.encode())
            + struct.pack(">i", event.schema_version)
            + _field(event.data)
        )
    return digest.digest()


def verify_chain(
    stream_id: str,
    events: Sequence[StoredEvent],
    head_version: int,
    head_hash: bytes,
) -> VerifyReport:
    """Walk a stream in version order and name the first link that does not hold.

    ``head_version``/``head_hash`` are what the store recorded as the stream's end when it
    last appended; comparing them catches events removed from the end.
    """
    previous = GENESIS
    expected = 1
    for checked, event in enumerate(events):
        problem = _link_problem(event, expected, previous)
        if problem:
            return VerifyReport(stream_id, checked, BrokenLink(expected, problem))
        previous = event.hash
        expected += 1
    last = expected - 1
    if head_version != last:
        problem = f"the stream ends at version {last} but its head records version {head_version}"
        return VerifyReport(stream_id, len(events), BrokenLink(last + 1, problem))
    if head_hash != previous:
        problem = "the stream head's hash does not match the last event"
        return VerifyReport(stream_id, len(events), BrokenLink(last, problem))
    return VerifyReport(stream_id, len(events))


def _link_problem(event: StoredEvent, expected: int, previous: bytes) -> str | None:
    if event.version > expected:
        return f"version {expected} is missing (the next stored event is version {event.version})"
    if event.version < expected:
        return f"version {event.version} appears again after version {expected - 1}"
    computed = link_hash(
        previous, event.stream_id, event.version, event.type, event.schema_version, event.data
    )
    if computed != event.hash:
        return (
            "the stored hash does not match the event's content chained to the previous hash "
            f"(stored {event.hash.hex()[:16]}..., computed {computed.hex()[:16]}...)"
        )
    return None
