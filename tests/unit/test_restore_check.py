"""The check after a restore, over the in-memory store: a log that lost events a published
checkpoint covered, or whose first events differ, has writes refused (saying how many events
and since when) until the operator's decision is recorded; a log that went on is fine; nothing
published means nothing to check. Appends through the guarded store wait the same way."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.metrics import InMemoryMetrics
from adapters.memory.published_log import InMemoryPublishedLog
from adapters.memory.signer import memory_signer
from service.audit.log_checkpoints import LogTree
from service.audit.restore_check import (
    GuardedEventStore,
    PublishingLogNotary,
    RestoreGuard,
    accept_restore,
)
from service.errors import DatabaseUnavailable, HistoryMissing
from service.ports.event_store import NewEvent

MATCH = "00000000-0000-0000-0000-000000000001"
PUBLISHED_AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
STREAM = f"match-{MATCH}"


async def store_with(events: int, *, first: bytes = b"{}") -> tuple[InMemoryEventStore, LogTree]:
    store, registry = InMemoryEventStore(), InMemoryMatchRegistry()
    await registry.create(MATCH, external_ref=None, server_secret=b"s" * 32, seats=[])
    for version in range(events):
        data = first if version == 0 else b"{}"
        await store.append(STREAM, [NewEvent("e", 1, data)], expected_version=version)
    return store, LogTree(store, registry)


async def published_over(events: int) -> InMemoryPublishedLog:
    """What the service kept after giving out a checkpoint of a log of ``events`` events."""
    published = InMemoryPublishedLog()
    _, tree = await store_with(events)
    notary = PublishingLogNotary(memory_signer(), tree, published, lambda: PUBLISHED_AT)
    await notary.checkpoint()
    return published


async def test_a_log_that_lost_published_events_has_writes_refused_until_accepted() -> None:
    published = await published_over(7)
    _, tree = await store_with(4)  # the restored log
    guard = RestoreGuard(tree, published)
    with pytest.raises(DatabaseUnavailable, match="being checked"):
        await guard.refuse_writes()  # not yet checked: nothing may be written meanwhile
    missing = await guard.check()
    assert missing is not None
    with pytest.raises(HistoryMissing) as refused:
        await guard.refuse_writes()
    assert str(refused.value).startswith(
        "3 acknowledged events are missing: the log checkpoint published at "
        "2026-03-01T12:00:00+00:00 covers 7 events, the log holds 4"
    )

    _, again = await store_with(4)
    decided_at = datetime(2026, 3, 2, tzinfo=UTC)
    acceptance = await accept_restore(published, again, "host lost", lambda: decided_at)
    assert acceptance is not None
    assert (acceptance.found, acceptance.published.size, acceptance.reason) == (4, 7, "host lost")
    assert await published.acceptances() == [acceptance]
    await guard.refuse_writes()  # lifted, without a restart


async def test_a_log_whose_published_events_differ_is_refused_as_rewritten() -> None:
    published = await published_over(5)
    _, tree = await store_with(6, first=b'{"other":1}')
    guard = RestoreGuard(tree, published)
    missing = await guard.check()
    assert missing is not None
    assert missing.rewritten
    with pytest.raises(HistoryMissing, match="rewritten"):
        await guard.refuse_writes()


async def test_a_log_that_went_on_or_never_published_anything_is_served() -> None:
    published = await published_over(5)
    _, longer = await store_with(9)
    guard = RestoreGuard(longer, published)
    assert await guard.check() is None
    await guard.refuse_writes()
    _, again = await store_with(9)
    assert await accept_restore(published, again, "nothing", lambda: PUBLISHED_AT) is None

    _, tree = await store_with(2)
    unpublished = RestoreGuard(tree, InMemoryPublishedLog())
    await unpublished.refuse_writes()  # nothing to lose: served before the check too
    assert await unpublished.check() is None


async def test_every_append_waits_for_the_guard() -> None:
    published = await published_over(3)
    store, tree = await store_with(1)
    guard = RestoreGuard(tree, published)
    await guard.check()
    guarded = GuardedEventStore(store, InMemoryMetrics(), guard)
    with pytest.raises(HistoryMissing):
        await guarded.append(STREAM, [NewEvent("e", 1, b"{}")], expected_version=1)
    assert await store.stream_version(STREAM) == 1


async def test_only_a_larger_checkpoint_replaces_the_one_kept() -> None:
    published = InMemoryPublishedLog()
    for events in (5, 3):
        _, tree = await store_with(events)
        await PublishingLogNotary(
            memory_signer(), tree, published, lambda: PUBLISHED_AT
        ).checkpoint()
    kept = await published.last()
    assert kept is not None
    assert kept.size == 5


async def test_a_checkpoint_given_out_after_a_start_does_not_hold_writes_back() -> None:
    published = InMemoryPublishedLog()
    _, tree = await store_with(3)
    guard = RestoreGuard(tree, published)
    await guard.refuse_writes()  # nothing kept at this start
    await PublishingLogNotary(memory_signer(), tree, published, lambda: PUBLISHED_AT).checkpoint()
    await guard.refuse_writes()  # still unchecked, but what was given out came from this log
    assert await guard.check() is None

    _, restarted_tree = await store_with(3)
    restarted = RestoreGuard(restarted_tree, published)  # kept before this start: checked
    with pytest.raises(DatabaseUnavailable, match="being checked"):
        await restarted.refuse_writes()
    assert await restarted.check() is None
