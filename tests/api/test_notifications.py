"""The wake-ups behind live streams: a notification wakes every stream waiting on that match
and no other, and a stream that stops waiting leaves nothing behind."""

from __future__ import annotations

import asyncio

from adapters.postgres.wakeups import PostgresWakeups


def new_wakeups() -> PostgresWakeups:
    return PostgresWakeups("postgresql://unused")  # never started: no connection is made


async def test_a_notification_wakes_every_waiter_of_its_stream_and_no_other() -> None:
    hub = new_wakeups()
    first, second, elsewhere = hub.waiter("match-a"), hub.waiter("match-a"), hub.waiter("match-b")
    waits = [asyncio.create_task(w.wait(5)) for w in (first, second, elsewhere)]
    await asyncio.sleep(0)
    hub.wake("match-a")
    assert await asyncio.gather(*waits[:2]) == [True, True]
    assert not waits[2].done()
    elsewhere.close()
    waits[2].cancel()


async def test_a_wake_between_taking_a_waiter_and_waiting_is_not_missed() -> None:
    hub = new_wakeups()
    waiter = hub.waiter("match-a")
    hub.wake("match-a")  # a commit while the stream was reading the store
    assert await waiter.wait(0.01) is True


async def test_waiting_out_the_timeout_or_closing_leaves_nothing_behind() -> None:
    hub = new_wakeups()
    timed_out, closed = hub.waiter("match-a"), hub.waiter("match-b")
    assert await timed_out.wait(0.01) is False
    closed.close()
    assert hub._pending == {}


async def test_losing_the_connection_wakes_everyone_to_read_again() -> None:
    hub = new_wakeups()
    waiters = [hub.waiter(f"match-{n}") for n in range(3)]
    hub.wake_all()
    assert [await w.wait(0.01) for w in waiters] == [True, True, True]
