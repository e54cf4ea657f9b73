"""The event store contract: every adapter passes these, unchanged."""

from __future__ import annotations

import asyncio
import functools
import random
from typing import Any

import msgspec
import pytest

from service.errors import IdempotencyKeyReused
from service.ports.event_store import (
    AppendResult,
    ConcurrencyConflict,
    EventStore,
    IdempotentAppend,
    InvalidSnapshot,
    MalformedEvent,
    NewEvent,
    StoredEvent,
    UnknownPosition,
)
from service.store.hash_chain import GENESIS, link_hash, request_fingerprint
from service.store.upcasting import canonical_json


def event(type: str, **data: object) -> NewEvent:
    return NewEvent(type, 1, canonical_json(data))


def payloads(events: list[StoredEvent]) -> list[dict[str, Any]]:
    return [msgspec.json.decode(e.data) for e in events]


async def settled(store: EventStore, count: int, wait: float = 10.0) -> None:
    """Once the log holds ``count`` events. PostgreSQL's log is read up to the oldest
    transaction still open on the server, and the store's own wake-ups hold one open for a
    moment after an append: the last append can be past it when read at once."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while len(await store.read_all(limit=1000)) < count and loop.time() < deadline:
        await asyncio.sleep(0.02)


# Appending and reading a stream


async def test_first_append_creates_the_stream_at_version_one(store: EventStore) -> None:
    result = await store.append(
        "match-1", [event("Dealt", dealer=0), event("Drew", seat=1)], expected_version=0
    )

    assert (result.stream_id, result.first_version, result.last_version) == ("match-1", 1, 2)
    assert len(result.positions) == 2
    assert await store.stream_version("match-1") == 2
    stored = await store.read_stream("match-1")
    assert [(e.version, e.type) for e in stored] == [(1, "Dealt"), (2, "Drew")]
    assert [e.position for e in stored] == list(result.positions)


async def test_events_keep_type_schema_version_and_exact_bytes(store: EventStore) -> None:
    # Canonical bytes are stored as given: never re-serialised, so their hash stays valid.
    data = '{"z":1,"a":"Kč ♠","n":[1.5,true,null]}'.encode()
    await store.append("match-1", [NewEvent("Knocked", 3, data)], expected_version=0)

    (stored,) = await store.read_stream("match-1")
    assert (stored.stream_id, stored.type, stored.schema_version) == ("match-1", "Knocked", 3)
    assert stored.data == data
    assert stored.recorded_at.tzinfo is not None


async def test_read_stream_after_a_version_returns_only_the_tail(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=n) for n in range(1, 6)], expected_version=0)

    tail = await store.read_stream("match-1", after_version=3)

    assert [e.version for e in tail] == [4, 5]
    assert payloads(tail) == [{"n": 4}, {"n": 5}]


async def test_an_unknown_stream_is_empty_at_version_zero(store: EventStore) -> None:
    assert await store.read_stream("nobody") == []
    assert await store.stream_version("nobody") == 0


async def test_streams_are_independent(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=1)], expected_version=0)
    await store.append("match-2", [event("E", n=2), event("E", n=3)], expected_version=0)

    assert payloads(await store.read_stream("match-1")) == [{"n": 1}]
    assert [e.version for e in await store.read_stream("match-2")] == [1, 2]


@pytest.mark.parametrize(
    ("events", "expected_version"),
    [
        ([], 0),
        ([NewEvent("", 1, b"{}")], 0),
        ([NewEvent("E", 0, b"{}")], 0),
        ([NewEvent("E", 1, b"{}")], -1),
        ([NewEvent("E", 1, b"{not json")], 0),
        ([NewEvent("E", 1, b'{"a": "\xff"}')], 0),
    ],
    ids=["no-events", "empty-type", "schema-version-0", "negative-version", "not-json", "not-utf8"],
)
async def test_malformed_appends_are_refused_and_write_nothing(
    store: EventStore, events: list[NewEvent], expected_version: int
) -> None:
    with pytest.raises(MalformedEvent):
        await store.append("match-1", events, expected_version=expected_version)

    assert await store.stream_version("match-1") == 0
    assert await store.read_all() == []


# Guarantee 1: optimistic concurrency


async def test_stale_expected_version_is_refused_naming_the_current_version(
    store: EventStore,
) -> None:
    await store.append("match-1", [event("E", n=1), event("E", n=2)], expected_version=0)

    with pytest.raises(ConcurrencyConflict) as stale:
        await store.append("match-1", [event("E", n=3)], expected_version=1)

    assert (stale.value.stream_id, stale.value.expected, stale.value.current) == ("match-1", 1, 2)
    assert "version 2" in str(stale.value)
    assert payloads(await store.read_stream("match-1")) == [{"n": 1}, {"n": 2}]
    # The refusal brings what the writer missed, as stored: it need not read it.
    assert stale.value.tail == tuple(await store.read_stream("match-1", after_version=1))


async def test_a_conflict_brings_every_event_after_the_expected_version(
    store: EventStore,
) -> None:
    await store.append("match-1", [event("E", n=1)], expected_version=0)
    await store.append("match-1", [event("E", n=2), event("E", n=3)], expected_version=1)

    for expected in (0, 1, 2):
        with pytest.raises(ConcurrencyConflict) as behind:
            await store.append("match-1", [event("E", n=9)], expected_version=expected)
        stored = await store.read_stream("match-1", after_version=expected)
        assert behind.value.tail == tuple(stored)
        assert [e.version for e in stored] == list(range(expected + 1, 4))
    with pytest.raises(ConcurrencyConflict) as ahead:
        await store.append("match-1", [event("E", n=9)], expected_version=5)
    assert ahead.value.tail is None


async def test_creating_an_existing_stream_is_a_conflict(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=1)], expected_version=0)

    with pytest.raises(ConcurrencyConflict) as taken:
        await store.append("match-1", [event("E", n=2)], expected_version=0)

    assert taken.value.current == 1


async def test_expecting_a_version_the_stream_has_not_reached_is_a_conflict(
    store: EventStore,
) -> None:
    with pytest.raises(ConcurrencyConflict) as missing:
        await store.append("match-1", [event("E", n=1)], expected_version=3)
    assert missing.value.current == 0

    await store.append("match-1", [event("E", n=1)], expected_version=0)
    with pytest.raises(ConcurrencyConflict) as ahead:
        await store.append("match-1", [event("E", n=2)], expected_version=5)
    assert ahead.value.current == 1
    assert await store.stream_version("match-1") == 1


async def test_twenty_racing_writers_win_exactly_one_version_each(store: EventStore) -> None:
    writers, appends_each = 20, 4
    winners: dict[int, int] = {}
    start = asyncio.Event()

    async def writer(number: int) -> None:
        await start.wait()
        for seq in range(appends_each):
            while True:
                version = await store.stream_version("match-1")
                outcome = await attempt(
                    store, "match-1", event("E", writer=number, seq=seq), version
                )
                if isinstance(outcome, ConcurrencyConflict):
                    assert outcome.current > version
                    if outcome.tail is not None:
                        # What the loser missed is exactly what is stored after its version.
                        stored = await store.read_stream("match-1", after_version=version)
                        assert outcome.tail == tuple(stored[: outcome.current - version])
                    continue
                assert outcome.last_version not in winners, "two writers won the same version"
                winners[outcome.last_version] = number
                break

    tasks = [asyncio.create_task(writer(n)) for n in range(writers)]
    start.set()
    await asyncio.gather(*tasks)

    total = writers * appends_each
    stored = await store.read_stream("match-1")
    assert [e.version for e in stored] == list(range(1, total + 1))
    assert sorted(winners) == list(range(1, total + 1))
    written = [(p["writer"], p["seq"]) for p in payloads(stored)]
    assert sorted(written) == [(w, s) for w in range(writers) for s in range(appends_each)]
    assert [winners[e.version] for e in stored] == [w for w, _ in written]
    assert (await store.verify_stream("match-1")).ok


async def attempt(
    store: EventStore, stream_id: str, new: NewEvent, version: int
) -> AppendResult | ConcurrencyConflict:
    try:
        return await store.append(stream_id, [new], expected_version=version)
    except ConcurrencyConflict as lost:
        return lost


# Guarantee 2: idempotent retries


def replayed(first: AppendResult) -> AppendResult:
    """``first`` as a retry under its key is answered: the same, marked as written before."""
    return msgspec.structs.replace(first, replayed=True)


async def test_a_retry_with_the_same_key_returns_the_first_result_and_writes_nothing(
    store: EventStore,
) -> None:
    batch = [event("Drew", seat=0), event("Discarded", card="Td")]
    first = await store.append("match-1", batch, expected_version=0, idempotency_key="cmd-1")

    retry = await store.append("match-1", batch, expected_version=0, idempotency_key="cmd-1")

    assert retry == replayed(first)
    assert [e.version for e in await store.read_stream("match-1")] == [1, 2]
    assert len(await store.read_all()) == 2


async def test_a_retry_still_returns_the_first_result_after_the_stream_moved_on(
    store: EventStore,
) -> None:
    first = await store.append(
        "match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1"
    )
    await store.append("match-1", [event("E", n=2)], expected_version=1)

    assert await store.append(
        "match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1"
    ) == replayed(first)
    assert await store.stream_version("match-1") == 2


@pytest.mark.parametrize(
    ("stream_id", "events", "expected_version"),
    [
        ("match-1", [event("E", n=99)], 0),
        ("match-1", [NewEvent("E", 2, canonical_json({"n": 1}))], 0),
        ("match-1", [event("E", n=1), event("E", n=1)], 0),
        ("match-2", [event("E", n=1)], 0),
        ("match-1", [event("E", n=1)], 1),
    ],
    ids=["other-data", "other-schema-version", "more-events", "other-stream", "other-version"],
)
async def test_the_same_key_with_different_content_is_refused(
    store: EventStore, stream_id: str, events: list[NewEvent], expected_version: int
) -> None:
    await store.append("match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1")

    with pytest.raises(IdempotencyKeyReused) as reused:
        await store.append(
            stream_id, events, expected_version=expected_version, idempotency_key="cmd-1"
        )

    assert reused.value.kind == "idempotency-key-reused"
    assert len(await store.read_all()) == 1


async def test_a_key_is_found_with_the_request_and_the_result_of_its_first_append(
    store: EventStore,
) -> None:
    assert await store.find_idempotent("cmd-1") is None
    first = await store.append(
        "match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1", fingerprint=b"r"
    )
    await store.append("match-1", [event("E", n=2)], expected_version=1)

    assert await store.find_idempotent("cmd-1") == IdempotentAppend(b"r", first)
    assert await store.find_idempotent("cmd-2") is None


async def test_a_key_is_found_with_the_appends_own_fingerprint_if_none_is_named(
    store: EventStore,
) -> None:
    batch = [event("E", n=1)]
    first = await store.append("match-1", batch, expected_version=0, idempotency_key="cmd-1")

    found = await store.find_idempotent("cmd-1")

    assert found == IdempotentAppend(request_fingerprint("match-1", 0, batch), first)


async def test_a_named_request_is_replayed_whatever_it_would_append_now(
    store: EventStore,
) -> None:
    # A request decided anew on a later version gives other events: still the same request.
    first = await store.append(
        "match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1", fingerprint=b"r"
    )
    await store.append("match-1", [event("E", n=2)], expected_version=1)

    retry = await store.append(
        "match-1", [event("E", n=3)], expected_version=2, idempotency_key="cmd-1", fingerprint=b"r"
    )

    assert retry == replayed(first)
    assert await store.stream_version("match-1") == 2


@pytest.mark.parametrize(
    ("stream_id", "fingerprint"),
    [("match-1", b"other request"), ("match-2", b"r")],
    ids=["other-fingerprint", "other-stream"],
)
async def test_the_same_key_for_another_named_request_is_refused(
    store: EventStore, stream_id: str, fingerprint: bytes
) -> None:
    await store.append(
        "match-1", [event("E", n=1)], expected_version=0, idempotency_key="cmd-1", fingerprint=b"r"
    )

    with pytest.raises(IdempotencyKeyReused):
        await store.append(
            stream_id,
            [event("E", n=1)],
            expected_version=0,
            idempotency_key="cmd-1",
            fingerprint=fingerprint,
        )

    assert len(await store.read_all()) == 1


async def test_concurrent_attempts_of_one_named_request_write_it_once(store: EventStore) -> None:
    # Each attempt decided its own events; the one that commits first is the answer to all.
    results = await asyncio.gather(
        *(
            store.append(
                "match-1",
                [event("E", attempt=n)],
                expected_version=0,
                idempotency_key="cmd-1",
                fingerprint=b"r",
            )
            for n in range(10)
        )
    )

    assert len({replayed(result) for result in results}) == 1
    assert [result.replayed for result in results].count(False) == 1, "one attempt wrote"
    assert [e.version for e in await store.read_stream("match-1")] == [1]


async def test_concurrent_retries_of_one_request_write_it_once(store: EventStore) -> None:
    batch = [event("E", n=1)]
    results = await asyncio.gather(
        *(
            store.append("match-1", batch, expected_version=0, idempotency_key="cmd-1")
            for _ in range(10)
        )
    )

    assert len({replayed(result) for result in results}) == 1
    assert [result.replayed for result in results].count(False) == 1, "one attempt wrote"
    assert [e.version for e in await store.read_stream("match-1")] == [1]


# Guarantee 3: the global log


async def test_the_global_log_holds_every_event_once_in_append_order(store: EventStore) -> None:
    await store.append("a", [event("E", n=1), event("E", n=2)], expected_version=0)
    await store.append("b", [event("E", n=3)], expected_version=0)
    await store.append("a", [event("E", n=4)], expected_version=2)
    await settled(store, 4)

    log = await store.read_all()

    assert payloads(log) == [{"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}]
    assert [(e.stream_id, e.version) for e in log] == [("a", 1), ("a", 2), ("b", 1), ("a", 3)]


async def test_paging_the_log_by_position_sees_every_event_exactly_once(
    store: EventStore,
) -> None:
    for n in range(10):
        await store.append(f"s{n % 3}", [event("E", n=n)], expected_version=n // 3)
    await settled(store, 10)

    seen: list[StoredEvent] = []
    cursor = 0
    while page := await store.read_all(after_position=cursor, limit=3):
        assert len(page) <= 3
        seen.extend(page)
        cursor = page[-1].position

    assert seen == await store.read_all()
    assert [p["n"] for p in payloads(seen)] == list(range(10))
    assert await store.read_all(after_position=cursor) == []


async def test_the_log_keeps_each_streams_version_order_under_racing_writers(
    store: EventStore,
) -> None:
    async def writer(stream: str) -> None:
        for version in range(5):
            await store.append(stream, [event("E", v=version + 1)], expected_version=version)

    await asyncio.gather(*(writer(f"s{n}") for n in range(8)))
    await settled(store, 40)

    log = await store.read_all(limit=100)
    assert len({e.position for e in log}) == 40
    for n in range(8):
        assert [e.version for e in log if e.stream_id == f"s{n}"] == [1, 2, 3, 4, 5]


async def test_paging_from_an_unknown_position_is_refused(store: EventStore) -> None:
    result = await store.append("a", [event("E", n=1)], expected_version=0)

    with pytest.raises(UnknownPosition):
        await store.read_all(after_position=result.positions[-1] + 1000)
    with pytest.raises(UnknownPosition):
        await store.read_all(after_position=-1)


async def test_some_streams_read_in_log_order_are_the_log_filtered_page_by_page(
    store: EventStore,
) -> None:
    for n in range(12):
        await store.append(f"s{n % 4}", [event("E", n=n)], expected_version=n // 4)
    await settled(store, 12)
    wanted = {"s1", "s3"}
    log = await store.read_all()

    seen: list[StoredEvent] = []
    cursor = 0
    while page := await store.read_streams_in_log(wanted, after_position=cursor, limit=2):
        assert len(page) <= 2
        seen.extend(page)
        cursor = page[-1].position
    # From any position of the log, another stream's included.
    other = next(e for e in log if e.stream_id == "s0" and e.version == 2)
    tail = await store.read_streams_in_log(wanted, after_position=other.position)

    assert seen == [e for e in log if e.stream_id in wanted]
    assert tail == [e for e in log if e.stream_id in wanted and e.position > other.position]
    assert await store.read_streams_in_log(["nobody"]) == []
    with pytest.raises(UnknownPosition):
        await store.read_streams_in_log(wanted, after_position=log[-1].position + 1000)


# Guarantee 4: the hash chain


async def test_each_event_hash_chains_to_the_previous_one(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=1), event("F", n=2)], expected_version=0)
    await store.append("match-1", [NewEvent("G", 2, b"{}")], expected_version=2)

    first, second, third = await store.read_stream("match-1")

    assert first.hash == link_hash(GENESIS, "match-1", 1, "E", 1, first.data)
    assert second.hash == link_hash(first.hash, "match-1", 2, "F", 1, second.data)
    assert third.hash == link_hash(second.hash, "match-1", 3, "G", 2, b"{}")


async def test_an_untouched_stream_verifies(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=n) for n in range(5)], expected_version=0)

    report = await store.verify_stream("match-1")

    assert report.ok
    assert report.events_checked == 5
    report.raise_if_broken()


async def test_an_unknown_stream_verifies_with_nothing_checked(store: EventStore) -> None:
    report = await store.verify_stream("nobody")

    assert report.ok
    assert report.events_checked == 0


# Guarantee 7: snapshots


def fold(total: int, events: list[StoredEvent]) -> int:
    return total + sum(int(p["amount"]) for p in payloads(events))


async def test_a_snapshot_plus_the_tail_gives_the_state_of_a_full_replay(
    store: EventStore,
) -> None:
    await store.append("match-1", [event("E", amount=n) for n in range(1, 41)], expected_version=0)
    state_at_40 = fold(0, await store.read_stream("match-1"))
    await store.save_snapshot("match-1", 40, "Total/1", canonical_json(state_at_40))
    await store.append(
        "match-1", [event("E", amount=n) for n in range(41, 46)], expected_version=40
    )

    snapshot = await store.load_snapshot("match-1")
    assert snapshot is not None
    tail = await store.read_stream("match-1", after_version=snapshot.version)
    from_snapshot = fold(msgspec.json.decode(snapshot.data), tail)

    assert len(tail) == 5
    assert from_snapshot == fold(0, await store.read_stream("match-1")) == sum(range(1, 46))


async def test_a_snapshot_is_stored_with_its_version_and_state_type(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=1), event("E", n=2)], expected_version=0)
    assert await store.load_snapshot("match-1") is None

    await store.save_snapshot("match-1", 2, "Match/3", b'{"state":1}')

    snapshot = await store.load_snapshot("match-1")
    assert snapshot is not None
    assert (snapshot.stream_id, snapshot.version, snapshot.state_type, snapshot.data) == (
        "match-1",
        2,
        "Match/3",
        b'{"state":1}',
    )


async def test_the_newest_snapshot_is_kept(store: EventStore) -> None:
    await store.append("match-1", [event("E", n=n) for n in range(3)], expected_version=0)
    await store.save_snapshot("match-1", 2, "S/1", b"2")
    await store.save_snapshot("match-1", 1, "S/1", b"1")
    saved = await store.load_snapshot("match-1")
    assert saved is not None
    assert saved.version == 2

    await store.save_snapshot("match-1", 3, "S/2", b"3")
    saved = await store.load_snapshot("match-1")
    assert saved is not None
    assert (saved.version, saved.state_type, saved.data) == (3, "S/2", b"3")


@pytest.mark.parametrize("version", [0, 3])
async def test_a_snapshot_outside_the_stream_is_refused(store: EventStore, version: int) -> None:
    await store.append("match-1", [event("E", n=1), event("E", n=2)], expected_version=0)

    with pytest.raises(InvalidSnapshot):
        await store.save_snapshot("match-1", version, "S/1", b"{}")

    assert await store.load_snapshot("match-1") is None


# The latest version of some event types, per stream


async def test_latest_versions_gives_each_streams_latest_event_of_each_type(
    store: EventStore,
) -> None:
    types = ["dealt", "drew", "dealt", "scored", "dealt", "drew"]
    await store.append("match-1", [event(t, n=n) for n, t in enumerate(types)], expected_version=0)
    await store.append("match-2", [event("dealt", n=0)], expected_version=0)
    await store.append("match-3", [event("drew", n=0)], expected_version=0)

    latest = await store.latest_versions(
        ["match-1", "match-2", "match-3", "nobody"], ["dealt", "scored", "hand_drawn"]
    )

    assert latest == {"match-1": {"dealt": 5, "scored": 4}, "match-2": {"dealt": 1}}


async def test_latest_versions_of_no_streams_or_no_types_is_empty(store: EventStore) -> None:
    await store.append("match-1", [event("dealt", n=0)], expected_version=0)

    assert await store.latest_versions([], ["dealt"]) == {}
    assert await store.latest_versions(["match-1"], []) == {}


# All guarantees together, against a model of what the store must hold


async def test_a_random_workload_matches_a_simple_model(store: EventStore) -> None:
    rng = random.Random(20251129)
    model: dict[str, list[bytes]] = {}
    requests: dict[str, tuple[str, int, bytes]] = {}
    results: dict[str, AppendResult] = {}
    log: list[bytes] = []
    for step in range(150):
        stream = rng.choice(["a", "b", "c"])
        current = len(model.get(stream, []))
        expected = current if rng.random() < 0.7 else rng.randint(0, current + 2)
        data = canonical_json({"step": step})
        key = rng.choice([None, f"k{rng.randint(0, 30)}"])
        if key in requests and rng.random() < 0.5:
            stream, expected, data = requests[key]  # a faithful retry of an earlier request
            current = len(model[stream])

        append = functools.partial(
            store.append,
            stream,
            [NewEvent("E", 1, data)],
            expected_version=expected,
            idempotency_key=key,
        )
        if key in requests and requests[key] != (stream, expected, data):
            with pytest.raises(IdempotencyKeyReused):
                await append()
        elif key in requests:
            assert await append() == replayed(results[key])
        elif expected != current:
            with pytest.raises(ConcurrencyConflict) as conflict:
                await append()
            assert conflict.value.current == current
            if expected < current:
                missed = model[stream][expected:]
                assert [e.data for e in conflict.value.tail or ()] == missed
            else:
                assert conflict.value.tail is None
        else:
            result = await append()
            assert (result.first_version, result.last_version) == (current + 1, current + 1)
            model.setdefault(stream, []).append(data)
            log.append(data)
            if key is not None:
                requests[key], results[key] = (stream, expected, data), result

    for stream, datas in model.items():
        assert [e.data for e in await store.read_stream(stream)] == datas
        assert await store.stream_version(stream) == len(datas)
        assert (await store.verify_stream(stream)).ok
    assert [e.data for e in await store.read_all(limit=1000)] == log
