"""What turn clocks cost a server: CPU per command of clocked matches against unclocked ones,
and the CPU of an idle server holding 10,000 pending deadlines against one holding none.

    python3 dev.py bench clocks [--database-url URL] [--commands N] [--rounds N]
                                [--deadlines N] [--idle-seconds S]

Per command: one ``gin serve`` (as deployed: INFO request log, its turn-clock timer and bot
runner running); in each round two batches of ``--commands`` commands over keep-alive HTTP
from 4 clients, one batch in matches without a clock (the reference) and one in matches with
``turn_seconds`` 3600 and ``bank_seconds`` 600, the order alternating from round to round. The
server's CPU time (every process of its session) over a batch, over the commands answered, is
its cost per command (with the views the clients read in between, the same for both).
Target: clocked no more than 1.10x unclocked.

Idle: two ``gin serve`` processes, each on a database of its own, both sent nothing; one
database holds ``--deadlines`` pending deadlines, each made by appending a ``deadline_set``
event through the event store (so its trigger keeps the row and the servers hear of it), due
in a day; the other none (the reference). Both servers' CPU is read over the same windows of
``--idle-seconds``. Target: at most 1% of a core with the deadlines.

Without a URL it runs an embedded PostgreSQL in a temporary folder (fsync on).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from adapters.postgres.event_store import PostgresEventStore, open_pool
from bench.database import bench_database
from bench.idle_process import session_cpu_seconds
from bench.players import UNIFORM, choose
from bench.servers import gin_serve
from bench.store import concurrently
from bench.tables import print_table
from domain.events import DeadlineSet
from service.store.codec import to_record
from service.store.match_streams import stream_id

CLIENTS = 4
UNCLOCKED: dict[str, Any] = {}
CLOCKED: dict[str, Any] = {"turn_seconds": 3600, "bank_seconds": 600}
WRITERS = 8


async def play_commands(base_url: str, options: dict[str, Any], commands: int, seed: int) -> int:
    """Commands answered 200, played by ``CLIENTS`` clients in matches with ``options``."""
    answered = 0

    async def client(number: int) -> None:
        nonlocal answered
        rng = random.Random(seed * 100 + number)
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
            while answered < commands:
                created = (await http.post("/matches", json={"options": options})).json()
                path = f"/matches/{created['match_id']}"
                headers = {
                    s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]
                }
                view = (await http.get(f"{path}/view", headers=headers[0])).json()
                while answered < commands and view["phase"] != "match_over":
                    seat = view["turn"]
                    if seat != view["seat"]:
                        view = (await http.get(f"{path}/view", headers=headers[seat])).json()
                    response = await http.post(
                        f"{path}/commands", json=choose(view, rng, UNIFORM), headers=headers[seat]
                    )
                    assert response.status_code == 200, response.text
                    view = response.json()
                    answered += 1

    await asyncio.gather(*(client(n) for n in range(CLIENTS)))
    return answered


async def cpu_per_command(
    url: str, session: int, commands: int, rounds: int
) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"no clock (reference)": [], "turn clock": []}
    for round_number in range(rounds):
        order = [False, True] if round_number % 2 == 0 else [True, False]
        for clocked in order:
            before = session_cpu_seconds(session)
            answered = await play_commands(
                url, CLOCKED if clocked else UNCLOCKED, commands, round_number
            )
            await asyncio.sleep(0.5)  # the server done with what the batch woke
            spent = session_cpu_seconds(session) - before
            found["turn clock" if clocked else "no clock (reference)"].append(spent / answered)
    return found


async def add_deadlines(url: str, count: int) -> None:
    """``count`` pending deadlines, due in a day, each the newest event of a stream of its own."""
    due = datetime.now(UTC) + timedelta(days=1)
    event = to_record(DeadlineSet(seat=0, at=datetime.now(UTC), due_at=due, banks_ms=[0, 0]))
    async with open_pool(url, min_size=WRITERS, max_size=WRITERS) as pool:
        store = PostgresEventStore(pool)
        await concurrently(
            WRITERS,
            count // WRITERS,
            lambda w, i: store.append(stream_id(str(uuid.uuid4())), [event], expected_version=0),
        )
        await store.close_wakeups()


def idle_cpu(sessions: dict[str, int], seconds: float, rounds: int) -> dict[str, list[float]]:
    """Each server's share of one core over the same windows."""
    found: dict[str, list[float]] = {label: [] for label in sessions}
    for _ in range(rounds):
        before = {label: session_cpu_seconds(s) for label, s in sessions.items()}
        started = time.monotonic()
        time.sleep(seconds)
        wall = time.monotonic() - started
        for label, session in sessions.items():
            found[label].append((session_cpu_seconds(session) - before[label]) / wall)
    return found


def spread(values: list[float], scale: float, digits: int) -> tuple[str, str]:
    return (
        f"{scale * statistics.median(values):.{digits}f}",
        f"{scale * min(values):.{digits}f}-{scale * max(values):.{digits}f}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--commands", type=int, default=2000, help="commands per batch")
    parser.add_argument("--rounds", type=int, default=4, help="batches of each kind")
    parser.add_argument("--deadlines", type=int, default=10_000)
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    args = parser.parse_args()

    with bench_database(args.database_url, "gin_bench_clocks") as url, gin_serve(url) as server:
        time.sleep(1.0)
        per_command = asyncio.run(
            cpu_per_command(server.url, server.pid, args.commands, args.rounds)
        )
    reference = statistics.median(per_command["no clock (reference)"])
    rows = [
        [label, *spread(values, 1e6, 0), f"{statistics.median(values) / reference:.2f}"]
        for label, values in per_command.items()
    ]
    print(f"\nserver CPU per command, {args.rounds} interleaved batches of {args.commands}")
    print_table(["matches", "median µs", "range µs", "x reference"], rows)

    with (
        bench_database(args.database_url, "gin_bench_idle_none") as empty,
        bench_database(args.database_url, "gin_bench_idle_many") as full,
    ):
        asyncio.run(add_deadlines(full, args.deadlines))
        with gin_serve(empty) as quiet, gin_serve(full) as holding:
            time.sleep(2.0)  # both past their start
            idle = idle_cpu(
                {"no deadlines (reference)": quiet.pid, f"{args.deadlines:,} pending": holding.pid},
                args.idle_seconds,
                args.rounds,
            )
    print(
        f"\nidle gin serve, share of one core over {args.rounds} windows of {args.idle_seconds:g} s"
    )
    print_table(
        ["deadlines", "median %", "range %"],
        [[label, *spread(values, 100, 3)] for label, values in idle.items()],
    )


if __name__ == "__main__":
    main()
