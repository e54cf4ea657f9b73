"""The wake-ups contract, on both adapters: each paired with the event store it hears appends
from (the in-memory store in process; PostgreSQL's NOTIFY after each append and LISTEN)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.wakeups import InMemoryWakeups
from adapters.postgres.event_store import PostgresEventStore
from adapters.postgres.wakeups import PostgresWakeups
from service.ports.event_store import EventStore, NewEvent
from service.ports.wakeups import Wakeups
from service.store.match_streams import THREE_OR_FOUR_SEATS, TWO_SEATS, match_id_of, stream_id

# Generous for a busy two-core machine; a wake-up that does arrive ends the wait at once.
ARRIVES = 10.0
# How long a wake-up that must not come is given to show up anyway.
STAYS_AWAY = 0.3

Pair = tuple[EventStore, Wakeups]


@pytest.fixture(params=["memory", "postgres"])
async def pair(request: pytest.FixtureRequest) -> AsyncIterator[Pair]:
    wakeups: Wakeups
    if request.param == "memory":
        memory = InMemoryEventStore()
        wakeups = InMemoryWakeups(memory)
        await wakeups.start()
        yield memory, wakeups
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with PostgresEventStore.connect(url, max_size=4) as postgres:
            wakeups = PostgresWakeups(url)
            await wakeups.start()
            yield postgres, wakeups
    await wakeups.stop()


def new_stream() -> str:
    return stream_id(str(uuid.uuid4()))


async def append(store: EventStore, stream: str, version: int = 0) -> None:
    await store.append(stream, [NewEvent("drew", 1, b"{}")], expected_version=version)


async def test_an_append_wakes_every_waiter_of_its_stream_and_no_other(pair: Pair) -> None:
    store, wakeups = pair
    stream, other = new_stream(), new_stream()
    first, second, elsewhere = wakeups.waiter(stream), wakeups.waiter(stream), wakeups.waiter(other)

    await append(store, stream)

    assert list(await asyncio.gather(first.wait(ARRIVES), second.wait(ARRIVES))) == [True, True]
    assert await elsewhere.wait(STAYS_AWAY) is False


async def test_an_append_before_the_wait_begins_is_not_missed(pair: Pair) -> None:
    store, wakeups = pair
    stream = new_stream()
    waiter = wakeups.waiter(stream)  # taken before reading the store, as a live stream does

    await append(store, stream)
    await asyncio.sleep(0.2)  # the append is heard while nobody is awaiting yet

    assert await waiter.wait(ARRIVES) is True


async def test_a_subscriber_hears_of_every_appended_match_stream(pair: Pair) -> None:
    store, wakeups = pair
    heard: list[str | None] = []
    wakeups.subscribe(heard.append)
    streams = [new_stream(), new_stream()]

    for stream in streams:
        await append(store, stream)
    await append(store, "not-a-match")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ARRIVES
    while not set(streams) <= set(heard) and loop.time() < deadline:
        await asyncio.sleep(0.02)

    assert set(streams) <= set(heard)
    assert "not-a-match" not in heard


async def test_a_waiter_released_by_timeout_or_close_leaves_nothing_behind(pair: Pair) -> None:
    _, wakeups = pair
    timed_out, closed = wakeups.waiter(new_stream()), wakeups.waiter(new_stream())
    assert wakeups.waiting() == 2

    assert await timed_out.wait(0.01) is False
    closed.close()

    assert wakeups.waiting() == 0


async def test_a_woken_waiter_leaves_nothing_behind(pair: Pair) -> None:
    store, wakeups = pair
    stream = new_stream()
    waiter = wakeups.waiter(stream)

    await append(store, stream)

    assert await waiter.wait(ARRIVES) is True
    assert wakeups.waiting() == 0


async def test_stopping_wakes_every_waiter_and_tells_subscribers_to_look_again(
    pair: Pair,
) -> None:
    _, wakeups = pair
    heard: list[str | None] = []
    wakeups.subscribe(heard.append)
    waiters = [wakeups.waiter(new_stream()) for _ in range(3)]

    await wakeups.stop()

    assert [await w.wait(0.01) for w in waiters] == [True, True, True]
    assert heard[-1] is None
    assert wakeups.waiting() == 0


async def test_a_three_or_four_player_match_stream_wakes_its_waiters_too(pair: Pair) -> None:
    store, wakeups = pair
    match_id = str(uuid.uuid4())
    stream = THREE_OR_FOUR_SEATS.stream_id(match_id)
    waiter, two_player = wakeups.waiter(stream), wakeups.waiter(new_stream())
    heard: list[str | None] = []
    wakeups.subscribe(heard.append)

    await append(store, stream)

    assert await waiter.wait(ARRIVES) is True
    assert await two_player.wait(STAYS_AWAY) is False
    assert stream in heard
    # It is a match's stream; a subscriber that follows two-player matches only asks that kind.
    assert match_id_of(stream) == match_id
    assert TWO_SEATS.match_id_of(stream) is None
