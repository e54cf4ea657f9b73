"""The metered decorators count what passes through them, and change nothing of it."""

from __future__ import annotations

import pytest

from adapters.memory.delivery_sender import RecordingSender
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.metrics import InMemoryMetrics
from service.ports.delivery_queue import Outcome
from service.ports.event_store import ConcurrencyConflict, NewEvent
from service.store.metered import MeteredEventStore
from service.tournament.webhooks.metered import MeteredSender

EVENT = NewEvent(type="created", schema_version=1, data=b"{}")


async def test_appends_their_events_and_conflicts_are_counted() -> None:
    metrics = InMemoryMetrics()
    store = MeteredEventStore(InMemoryEventStore(), metrics)

    first = await store.append("match-a", [EVENT, EVENT], expected_version=0)
    with pytest.raises(ConcurrencyConflict):
        await store.append("match-a", [EVENT], expected_version=0)

    assert first.last_version == 2
    assert await store.stream_version("match-a") == 2
    assert metrics.counts["appends",] == 1
    assert metrics.counts["appended_events",] == 2
    assert metrics.counts["append_conflicts",] == 1


async def test_each_delivery_attempt_is_counted_by_outcome() -> None:
    metrics = InMemoryMetrics()
    outcomes = [Outcome(status_code=500), Outcome(error="timed out"), Outcome(status_code=204)]
    sender = MeteredSender(RecordingSender(outcomes), metrics)

    answers = [await sender.send("http://receiver", b"{}", {}) for _ in outcomes]

    assert answers == outcomes
    assert metrics.counts["webhook_delivery", "refused"] == 1
    assert metrics.counts["webhook_delivery", "unreachable"] == 1
    assert metrics.counts["webhook_delivery", "delivered"] == 1
