"""The event store against raw psycopg on the same PostgreSQL, in one run.

    python3 dev.py bench store [--database-url URL] [--appends N] [--streams N] [--events N]

1. Appends per second: ``PostgresEventStore.append`` (one event per append, each writer on its
   own stream) vs as many raw single-row ``INSERT`` + ``COMMIT`` into a plain table
   (``bench.reference``), with 1 and 8 concurrent writers. Target: at least 0.7x of raw at 8
   writers.
2. Events per second replayed: ``read_stream`` plus decoding and folding every event into a
   state vs fetching the same rows raw. Target: at least 0.5x.

Without a URL it runs an embedded PostgreSQL in a temporary folder (fsync on, as deployed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from adapters.postgres.event_store import PostgresEventStore, open_pool
from bench import tables
from bench.database import bench_database
from bench.reference import raw_inserts
from service.ports.event_store import NewEvent, StoredEvent
from service.store.upcasting import Upcasters, canonical_json

RAW_FETCH = """
SELECT stream_id, version, position, type, schema_version, data, hash, recorded_at
FROM events WHERE stream_id = %s ORDER BY version
"""

Row = tuple[str, str, str, str, str]


def sample_event(turn: int) -> NewEvent:
    data = {"seat": turn % 2, "card": "Td", "source": "stock", "turn": turn}
    return NewEvent("Discarded", 1, canonical_json(data))


async def concurrently(
    writers: int, per_writer: int, op: Callable[[int, int], Awaitable[Any]]
) -> float:
    """Operations per second of ``writers`` tasks each running ``op(writer, i)`` in turn."""

    async def writer(number: int) -> None:
        for i in range(per_writer):
            await op(number, i)

    started = time.perf_counter()
    await asyncio.gather(*(writer(n) for n in range(writers)))
    return writers * per_writer / (time.perf_counter() - started)


async def raw_appends(url: str, writers: int, per_writer: int) -> float:
    """The reference (``bench.reference``): as many rows, each its own INSERT + COMMIT."""
    row = ("raw", "Discarded", sample_event(0).data)
    return (await raw_inserts(url, writers, rows_each=per_writer, row=row)).rate


async def store_appends(
    url: str, writers: int, per_writer: int, prefix: str, keyed: bool = False
) -> float:
    async with open_pool(url, min_size=writers, max_size=writers) as pool:
        store = PostgresEventStore(pool)
        versions = [0] * writers
        run = f"{prefix}{time.monotonic_ns()}"

        async def append(writer: int, i: int) -> None:
            key = f"{run}-{writer}-{versions[writer]}" if keyed else None
            await store.append(
                f"{run}-{writer}",
                [sample_event(i)],
                expected_version=versions[writer],
                idempotency_key=key,
            )
            versions[writer] += 1

        await concurrently(writers, 20, append)
        return await concurrently(writers, per_writer, append)


def fold(state: dict[str, int], events: list[StoredEvent], upcasters: Upcasters) -> None:
    for event in events:
        payload = upcasters.decode(event.type, event.schema_version, event.data)
        state[event.type] = state.get(event.type, 0) + 1
        state["turns"] = max(state.get("turns", 0), payload["turn"])


async def replay(url: str, streams: int, events_each: int) -> tuple[float, float]:
    """(raw rows fetched per second, events replayed into state per second)."""
    async with open_pool(url, min_size=1, max_size=1) as pool:
        store = PostgresEventStore(pool)
        ids = [f"replay-{time.monotonic_ns()}-{n}" for n in range(streams)]
        for stream in ids:
            for start in range(0, events_each, 500):
                batch = [sample_event(t) for t in range(start, min(start + 500, events_each))]
                await store.append(stream, batch, expected_version=start)
        upcasters = Upcasters()

        async def raw() -> float:
            started, count = time.perf_counter(), 0
            async with pool.connection() as connection:
                for stream in ids:
                    cursor = await connection.execute(RAW_FETCH, (stream,))
                    count += len(await cursor.fetchall())
            return count / (time.perf_counter() - started)

        async def replayed() -> float:
            started, count = time.perf_counter(), 0
            for stream in ids:
                state: dict[str, int] = {}
                events = await store.read_stream(stream)
                fold(state, events, upcasters)
                count += len(events)
            return count / (time.perf_counter() - started)

        await raw(), await replayed()  # warm caches and prepared statements
        raw_rates = [await raw() for _ in range(3)]
        replay_rates = [await replayed() for _ in range(3)]
        return max(raw_rates), max(replay_rates)


APPEND_KINDS = {
    "append": ("bench-", False),
    "append + idempotency key": ("bench-", True),
    "append to match-* (wakes live streams)": ("match-bench-", False),
}


async def append_rates(url: str, writers: int, appends: int, rounds: int) -> dict[str, float]:
    """Median appends per second of each kind; rounds interleave the kinds to share out noise."""
    per_writer = max(appends // writers, 1)
    rates: dict[str, list[float]] = {"raw": []}
    for _ in range(rounds):
        rates["raw"].append(await raw_appends(url, writers, per_writer))
        for label, (prefix, keyed) in APPEND_KINDS.items():
            rate = await store_appends(url, writers, per_writer, prefix, keyed)
            rates.setdefault(label, []).append(rate)
    return {label: statistics.median(values) for label, values in rates.items()}


async def run(url: str, appends: int, rounds: int, streams: int, events_each: int) -> list[Row]:
    rows: list[Row] = []
    for writers in (1, 8):
        rates = await append_rates(url, writers, appends, rounds)
        raw = rates.pop("raw")
        for label, rate in rates.items():
            target = ">= 0.70" if writers == 8 and label == "append" else ""
            measure = f"appends/s, {writers} writer(s): {label}"
            rows.append((measure, f"{raw:,.0f}", f"{rate:,.0f}", f"{rate / raw:.2f}", target))
    raw_rate, replay_rate = await replay(url, streams, events_each)
    rows.append(
        (
            f"events/s replayed ({streams} x {events_each})",
            f"{raw_rate:,.0f}",
            f"{replay_rate:,.0f}",
            f"{replay_rate / raw_rate:.2f}",
            ">= 0.50",
        )
    )
    return rows


def print_table(rows: list[Row]) -> None:
    tables.print_table(("measure", "raw psycopg", "event store", "ratio", "target"), rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--appends", type=int, default=2000, help="appends per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each kind")
    parser.add_argument("--streams", type=int, default=10)
    parser.add_argument("--events", type=int, default=2000, help="events per replayed stream")
    args = parser.parse_args()

    with bench_database(args.database_url, "gin_bench") as url:
        print_table(asyncio.run(run(url, args.appends, args.rounds, args.streams, args.events)))


if __name__ == "__main__":
    main()
