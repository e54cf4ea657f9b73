"""A batch of wake-ups is split into notifications PostgreSQL accepts (payloads under 8000
bytes), naming every stream once, in order."""

from __future__ import annotations

import uuid

from adapters.postgres.wakeup_sender import MAX_PAYLOAD, payloads
from adapters.postgres.wakeups import SEPARATOR


def test_a_batch_fits_in_payloads_postgres_accepts_and_names_every_stream_in_order() -> None:
    streams = [f"match-{uuid.uuid4()}" for _ in range(1_000)]

    found = list(payloads(streams))

    assert len(found) > 1
    assert all(len(payload.encode()) <= MAX_PAYLOAD < 8000 for payload in found)
    assert [s for payload in found for s in payload.split(SEPARATOR)] == streams


def test_one_stream_is_one_payload_of_its_id() -> None:
    assert list(payloads(["match-a"])) == ["match-a"]
    assert list(payloads([])) == []
