"""One command's latency on a match with a short history against one with a long history.

    python3 dev.py bench command_latency [--database-url URL] [--matches N] [--long 2000]

A command is what the service does for a player: load the match (snapshot plus tail, through
``MatchStreams``), decide a random legal action, append its events. Matches are prepared by
random legal play to ``--short`` and ``--long`` events and stored through the same
``MatchStreams`` (so snapshots are taken as in service). Each measured command uses a new
``MatchStreams`` ("cold": no state cached in the process, the path a second server process
takes) and then, on the same match, a second command with the first one's cache ("warm").
The reference is the short history; the target is a ratio of at most 1.2.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time

from msgspec.structs import replace

from adapters.postgres.event_store import PostgresEventStore
from bench.database import bench_database
from domain import Command, Event, MatchState, RuleOptions, decide, evolve, legal_actions
from domain.state import Phase, new_match
from service.store.match_streams import Loaded, MatchStreams

# Targets far away keep a long match in play for as many events as it takes.
ENDLESS = RuleOptions(game_target=10_000, match_target=10_000)
CHUNK = 40


def next_command(state: MatchState, rng: random.Random) -> Command:
    system = legal_actions(state, None)
    if system:
        command = system[0]
        if hasattr(command, "seed"):
            command = replace(command, seed=rng.randbytes(32).hex())
        elif state.phase is Phase.START:
            command = replace(command, options=ENDLESS)
        return command
    assert state.turn is not None
    return rng.choice(legal_actions(state, state.turn))


def play(events: int, rng: random.Random) -> list[Event]:
    """Random legal play until at least ``events`` events exist, ending on a seat's turn."""
    state, log = new_match(), list[Event]()
    while len(log) < events or legal_actions(state, None):
        for event in decide(state, next_command(state, rng)):
            state = evolve(state, event)
            log.append(event)
    return log


async def store_match(streams: MatchStreams, match_id: str, events: list[Event]) -> None:
    loaded = Loaded(new_match(), 0)
    for start in range(0, len(events), CHUNK):
        loaded, _ = await streams.append(match_id, loaded, events[start : start + CHUNK])


async def one_command(streams: MatchStreams, match_id: str, rng: random.Random) -> float:
    began = time.perf_counter()
    loaded = await streams.load(match_id)
    await streams.append(match_id, loaded, decide(loaded.state, next_command(loaded.state, rng)))
    return time.perf_counter() - began


async def measure(url: str, matches: int, lengths: dict[str, int]) -> dict[str, list[float]]:
    rng = random.Random(7)
    async with PostgresEventStore.connect(url, min_size=2, max_size=4) as store:
        ids = {name: [f"{name}-{i}" for i in range(matches)] for name in lengths}
        for name, length in lengths.items():
            for match_id in ids[name]:
                await store_match(MatchStreams(store), match_id, play(length, rng))
        timings: dict[str, list[float]] = {
            f"{n} {k}": [] for n in lengths for k in ("cold", "warm")
        }
        for i in range(matches):
            for name in lengths:  # interleaved, so drift on a noisy machine hits both alike
                streams = MatchStreams(store)
                timings[f"{name} cold"].append(await one_command(streams, ids[name][i], rng))
                timings[f"{name} warm"].append(await one_command(streams, ids[name][i], rng))
        return timings


def report(timings: dict[str, list[float]], lengths: dict[str, int]) -> None:
    short, long = lengths
    print(f"{'history':<14}{'events':>8}{'p50 ms':>10}{'mean ms':>10}{'ratio':>8}")
    for kind in ("cold", "warm"):
        base = statistics.median(timings[f"{short} {kind}"])
        for name in (short, long):
            values = timings[f"{name} {kind}"]
            p50 = statistics.median(values)
            print(
                f"{name + ' ' + kind:<14}{lengths[name]:>8}{p50 * 1e3:>10.2f}"
                f"{statistics.fmean(values) * 1e3:>10.2f}{p50 / base:>8.2f}"
            )
    print("ratio: p50 of the history over p50 of the short one, same path; target <= 1.2")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--short", type=int, default=50)
    parser.add_argument("--long", type=int, default=2000)
    args = parser.parse_args()
    lengths = {"short": args.short, "long": args.long}

    with bench_database(args.database_url, "gin_bench_latency") as url:
        report(asyncio.run(measure(url, args.matches, lengths)), lengths)


if __name__ == "__main__":
    main()
