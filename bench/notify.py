"""What waking live streams costs the event store: appends per second to match streams with
wake-ups on (as deployed: sent by the store, a listener running) vs off, in one run.

    python3 dev.py bench notify [--database-url URL] [--appends N] [--rounds N] [--all-ways]

Each writer appends one event at a time to its own ``match-`` stream, with 8 and then 32
writers. Per round, each way of waking is measured once, one after another (the order
alternating from round to round), and each rate is divided by the rate without wake-ups in
that round, as a busy machine moves both together; the table shows the medians and the range
of the ratios. Ways (the first and last by default, all with ``--all-ways``):

- off: no wake-up sent, nobody listening (live streams disabled).
- 0006 trigger: migration 0002's per-row ``NOTIFY`` inside the append's transaction (put back
  for the measurement), a listener running.
- one NOTIFY per append: its own transaction right after each append commits, awaited before
  the append returns (not waiting for its WAL flush), a listener running.
- batched, nobody listening: the store's ``WakeupSender`` (at once after a quiet spell, then at
  most one notification every 10 ms naming every stream appended to meanwhile), no listener.
- batched (deployed): the same, a listener running. Target: at least 0.9x of off at 8 and 32
  writers.

With a listener, it also notes how long after each append returned its stream was heard of
(p50, p99; an append never heard of fails the run; the trigger's, which can be heard before
the append returns, count 0 then).
Without a URL it runs an embedded PostgreSQL in a temporary folder (fsync on, as deployed).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import importlib
import os
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import psycopg

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.wakeups import CHANNEL, PostgresWakeups
from bench import tables
from bench.database import bench_database
from bench.store import concurrently, sample_event

MIGRATION_0007 = importlib.import_module("migrations.versions.0007_notify_after_commit")
ONE_NOTIFY = "SELECT set_config('synchronous_commit', 'off', true), pg_notify(%s, %s)"
WARM_UP_PER_WRITER = 10


Heard = dict[str, list[float]]


@asynccontextmanager
async def listening(url: str, heard: Heard) -> AsyncIterator[None]:
    """A listener as each server process runs one, noting when it hears of each stream."""
    loop = asyncio.get_running_loop()

    def note(stream: str | None) -> None:
        if stream is not None:
            heard.setdefault(stream, []).append(loop.time())

    wakeups = PostgresWakeups(url)
    wakeups.subscribe(note)
    await wakeups.start()
    try:
        yield
    finally:
        await wakeups.stop()


Appends = dict[str, list[tuple[float, float]]]


def delays(appended: Appends, heard: Heard, *, inside: bool) -> list[float]:
    """For each append, how long after it returned its stream was next heard of. A wake-up sent
    ``inside`` the append may come before the append's answer: then from when it was sent,
    and one heard before the answer counts 0."""
    found = []
    for stream, times in appended.items():
        woken = heard.get(stream, [])
        for sent, returned in times:
            index = bisect.bisect_left(woken, sent if inside else returned)
            found.append(max(woken[index] - returned, 0) if index < len(woken) else float("inf"))
    return found


@asynccontextmanager
async def trigger(url: str) -> AsyncIterator[None]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as connection:
        await connection.execute(MIGRATION_0007.TRIGGER)
        try:
            yield
        finally:
            await connection.execute(MIGRATION_0007.DROP_TRIGGER)


@dataclass(frozen=True)
class Way:
    label: str
    store_sends: bool
    listens: bool
    old_trigger: bool = False
    one_per_append: bool = False


OFF = Way("off", store_sends=False, listens=False)
WAYS = (
    OFF,
    Way("0006 trigger", store_sends=False, listens=True, old_trigger=True),
    Way("one NOTIFY per append", store_sends=False, listens=True, one_per_append=True),
    Way("batched, nobody listening", store_sends=True, listens=False),
    Way("batched (deployed)", store_sends=True, listens=True),
)
DEPLOYED = WAYS[-1]
Row = tuple[str, str, str, str, str, str, str]


@dataclass
class Measured:
    rate: float
    delays: list[float]


async def measure(url: str, way: Way, writers: int, per_writer: int) -> Measured:
    heard: Heard = {}
    appended: Appends = {}
    loop = asyncio.get_running_loop()
    async with AsyncExitStack() as stack:
        if way.old_trigger:
            await stack.enter_async_context(trigger(url))
        if way.listens:
            await stack.enter_async_context(listening(url, heard))
        pool = await stack.enter_async_context(open_pool(url, min_size=writers, max_size=writers))
        store = PostgresEventStore(pool, wake_match_streams=way.store_sends)
        run = f"match-bench-{time.monotonic_ns()}"
        versions = [0] * writers

        async def append(writer: int, i: int) -> None:
            stream = f"{run}-{writer}"
            sent = loop.time()
            await store.append(stream, [sample_event(i)], expected_version=versions[writer])
            appended.setdefault(stream, []).append((sent, loop.time()))
            versions[writer] += 1
            if way.one_per_append:
                async with pool.connection() as connection:
                    await connection.execute(ONE_NOTIFY, (CHANNEL, stream))

        await concurrently(writers, WARM_UP_PER_WRITER, append)
        appended.clear()
        rate = await concurrently(writers, per_writer, append)
        await store.close_wakeups()
        await asyncio.sleep(0.5)  # the last wake-ups on their way
    found = delays(appended, heard, inside=way.old_trigger) if way.listens else []
    if found and max(found) == float("inf"):
        raise SystemExit(f"{way.label}: an append was never heard of")
    return Measured(rate, found)


def milliseconds(values: list[float], quantile: float) -> str:
    if not values:
        return ""
    ordered = sorted(values)
    return f"{1000 * ordered[min(int(quantile * len(ordered)), len(ordered) - 1)]:.1f}"


async def run(url: str, appends: int, rounds: int, ways: tuple[Way, ...]) -> list[Row]:
    rows: list[Row] = []
    for writers in (8, 32):
        per_writer = max(appends // writers, 1)
        rates: dict[Way, list[float]] = {w: [] for w in ways}
        ratios: dict[Way, list[float]] = {w: [] for w in ways}
        waits: dict[Way, list[float]] = {w: [] for w in ways}
        for round_number in range(rounds):
            # Alternate the order, so no way always runs on a warmer (or busier) server.
            ordered = ways if round_number % 2 == 0 else tuple(reversed(ways))
            found = {w: await measure(url, w, writers, per_writer) for w in ordered}
            for w, measured in found.items():
                rates[w].append(measured.rate)
                ratios[w].append(measured.rate / found[OFF].rate)
                waits[w].extend(measured.delays)
        for w in ways:
            rows.append(
                (
                    f"{writers} writers: {w.label}",
                    f"{statistics.median(rates[w]):,.0f}",
                    f"{statistics.median(ratios[w]):.2f}",
                    f"{min(ratios[w]):.2f}-{max(ratios[w]):.2f}",
                    milliseconds(waits[w], 0.5),
                    milliseconds(waits[w], 0.99),
                    ">= 0.90" if w is DEPLOYED else "",
                )
            )
    return rows


def print_table(rows: list[Row]) -> None:
    tables.print_table(
        (
            "appends/s to match streams",
            "rate",
            "x off",
            "range",
            "heard p50 ms",
            "p99",
            "target",
        ),
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--appends", type=int, default=2000, help="appends per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="measurements of each way")
    parser.add_argument(
        "--all-ways", action="store_true", help="also the ways not chosen (default: off, deployed)"
    )
    args = parser.parse_args()
    ways = WAYS if args.all_ways else (OFF, DEPLOYED)

    with bench_database(args.database_url, "gin_bench_notify") as url:
        print_table(asyncio.run(run(url, args.appends, args.rounds, ways)))


if __name__ == "__main__":
    main()
