"""The hash chain on its own: what verification reports for each kind of damage."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from service.ports.event_store import NewEvent, StoredEvent
from service.store.hash_chain import GENESIS, link_hash, request_fingerprint, verify_chain

AT = datetime(2025, 11, 29, tzinfo=UTC)


def chain(count: int) -> list[StoredEvent]:
    events, previous = [], GENESIS
    for version in range(1, count + 1):
        data = b'{"n":%d}' % version
        previous = link_hash(previous, "m", version, "E", 1, data)
        events.append(StoredEvent("m", version, version, "E", 1, data, previous, AT))
    return events


def test_an_intact_chain_verifies() -> None:
    events = chain(4)

    report = verify_chain("m", events, 4, events[-1].hash)

    assert report.ok
    assert report.events_checked == 4


def test_edited_content_breaks_the_chain_at_that_event() -> None:
    events = chain(4)
    events[2] = msgspec.structs.replace(events[2], data=b'{"n":99}')

    report = verify_chain("m", events, 4, events[-1].hash)

    assert report.broken is not None
    assert report.broken.version == 3
    assert report.events_checked == 2


def test_a_missing_event_is_named() -> None:
    events = chain(4)
    del events[1]

    report = verify_chain("m", events, 4, events[-1].hash)

    assert report.broken is not None
    assert report.broken.version == 2
    assert "version 2 is missing" in report.broken.problem


def test_a_truncated_tail_is_caught_by_the_stream_head() -> None:
    events = chain(4)

    report = verify_chain("m", events[:3], 4, events[-1].hash)

    assert report.broken is not None
    assert report.broken.version == 4


def test_a_head_hash_that_does_not_match_the_last_event_is_reported() -> None:
    events = chain(2)

    report = verify_chain("m", events, 2, GENESIS)

    assert report.broken is not None
    assert "head's hash" in report.broken.problem


def test_every_field_of_an_event_changes_its_hash() -> None:
    base = link_hash(GENESIS, "m", 1, "E", 1, b"{}")

    assert link_hash(bytes([1]) * 32, "m", 1, "E", 1, b"{}") != base
    assert link_hash(GENESIS, "n", 1, "E", 1, b"{}") != base
    assert link_hash(GENESIS, "m", 2, "E", 1, b"{}") != base
    assert link_hash(GENESIS, "m", 1, "F", 1, b"{}") != base
    assert link_hash(GENESIS, "m", 1, "E", 2, b"{}") != base
    assert link_hash(GENESIS, "m", 1, "E", 1, b"[]") != base
    # Length prefixes: moving bytes between adjacent fields gives a different hash.
    assert link_hash(GENESIS, "m", 1, "E1", 1, b"{}") != link_hash(GENESIS, "m", 1, "E", 1, b"1{}")


def test_a_request_fingerprint_covers_target_version_and_events() -> None:
    events = [NewEvent("E", 1, b"{}")]
    base = request_fingerprint("m", 0, events)

    assert request_fingerprint("m", 0, list(events)) == base
    assert request_fingerprint("n", 0, events) != base
    assert request_fingerprint("m", 1, events) != base
    assert request_fingerprint("m", 0, [NewEvent("E", 2, b"{}")]) != base
    assert request_fingerprint("m", 0, [*events, *events]) != base
