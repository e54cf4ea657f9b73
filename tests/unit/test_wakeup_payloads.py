"""A batch of wake-ups is split into notifications PostgreSQL accepts (payloads under 8000
bytes), naming every stream once, in order, with the version its appends reached; a listener
reads them back, and reads a payload of an earlier release (stream ids alone) as streams of no
known version."""

from __future__ import annotations

import uuid

from adapters.postgres.wakeup_sender import MAX_PAYLOAD, payloads
from adapters.postgres.wakeups import read_payload


def test_a_batch_fits_in_payloads_postgres_accepts_and_names_every_stream_in_order() -> None:
    streams: list[tuple[str, int | None]] = [
        (f"match-{uuid.uuid4()}", None if n % 7 == 0 else n) for n in range(1_000)
    ]

    found = list(payloads(streams))

    assert len(found) > 1
    assert all(len(payload.encode()) <= MAX_PAYLOAD < 8000 for payload in found)
    assert [s for payload in found for s in read_payload(payload)] == streams


def test_one_stream_is_one_payload_of_its_id_and_version() -> None:
    assert list(payloads([("match-a", 12)])) == ["match-a @12"]
    assert list(payloads([("inbox-a", None)])) == ["inbox-a"]
    assert list(payloads([])) == []


def test_a_payload_of_an_earlier_release_names_streams_of_no_known_version() -> None:
    assert read_payload("match-a match-b") == [("match-a", None), ("match-b", None)]
    assert read_payload("match-a @3 match-b") == [("match-a", 3), ("match-b", None)]
    # A version token with nothing to name, or not a number, is no stream and no version.
    assert read_payload("@4 match-a @x") == [("match-a", None)]
