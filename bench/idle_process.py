"""What an idle ``gin serve`` costs for each command another process serves, before (0006's
trigger: one ``NOTIFY`` per appended row, inside the append) and after (wake-ups sent after
commit, batched: ``adapters/postgres/wakeup_sender.py``), in one run.

    python3 dev.py bench idle_process [--database-url URL] [--appends N] [--rounds N]

One ``gin serve`` runs on the database and is sent nothing. This process appends one event at
a time to the streams of registered matches (no bot seats; a command's append), from 8
writers, once with the trigger put back and the store sending nothing, once as deployed, the
order alternating from round to round. The idle server's CPU time (every process of its
session, from ``/proc``) over the appends, divided by their number, is what each command
served elsewhere costs it. Both sides run this checkout's server; only the sending differs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from bench.database import bench_database
from bench.notify import trigger
from bench.servers import gin_serve
from bench.store import concurrently, sample_event
from service.ports.match_registry import RegisteredSeat
from service.store.match_streams import stream_id

WRITERS = 8
TICKS = os.sysconf("SC_CLK_TCK")


def session_cpu_seconds(session: int) -> float:
    """User and system CPU time of every process in ``session``."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # After the name: state, ppid, pgrp, session, ..., utime (12th), stime (13th).
        if int(fields[3]) == session:
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


async def new_matches(url: str, count: int) -> list[str]:
    async with open_pool(url, min_size=1, max_size=1) as pool:
        registry = PostgresMatchRegistry(pool)
        ids = [str(uuid.uuid4()) for _ in range(count)]
        for match_id in ids:
            seats = [RegisteredSeat(s, os.urandom(32), "") for s in (0, 1)]
            await registry.create(
                match_id, external_ref=None, server_secret=os.urandom(32), seats=seats
            )
        return ids


async def cpu_per_append(url: str, session: int, old_trigger: bool, per_writer: int) -> float:
    """Seconds of the idle server's CPU per append made here."""
    matches = await new_matches(url, WRITERS)
    async with AsyncExitStack() as stack:
        if old_trigger:
            await stack.enter_async_context(trigger(url))
        pool = await stack.enter_async_context(open_pool(url, min_size=WRITERS, max_size=WRITERS))
        store = PostgresEventStore(pool, wake_match_streams=not old_trigger)
        versions = [0] * WRITERS

        async def append(writer: int, i: int) -> None:
            await store.append(
                stream_id(matches[writer]), [sample_event(i)], expected_version=versions[writer]
            )
            versions[writer] += 1

        await asyncio.sleep(0.5)  # the server quiet again after the matches were made
        before = session_cpu_seconds(session)
        await concurrently(WRITERS, per_writer, append)
        await store.close_wakeups()
        await asyncio.sleep(1.0)  # the server done with what it heard
        spent = session_cpu_seconds(session) - before
    return spent / (WRITERS * per_writer)


async def run(url: str, session: int, appends: int, rounds: int) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"0006 trigger": [], "after commit, batched": []}
    per_writer = max(appends // WRITERS, 1)
    for round_number in range(rounds):
        order = [True, False] if round_number % 2 == 0 else [False, True]
        for old_trigger in order:
            cost = await cpu_per_append(url, session, old_trigger, per_writer)
            found["0006 trigger" if old_trigger else "after commit, batched"].append(cost)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--appends", type=int, default=2000, help="appends per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each way")
    args = parser.parse_args()

    with bench_database(args.database_url, "gin_bench_idle") as url, gin_serve(url) as server:
        time.sleep(1.0)  # past its start-up sweep
        found = asyncio.run(run(url, server.pid, args.appends, args.rounds))
    print(f"{'idle gin serve, CPU per command served elsewhere':<50}  {'median µs':>9}  range µs")
    for label, values in found.items():
        spread = f"{1e6 * min(values):.0f}-{1e6 * max(values):.0f}"
        print(f"{label:<50}  {1e6 * statistics.median(values):>9.0f}  {spread}")


if __name__ == "__main__":
    main()
