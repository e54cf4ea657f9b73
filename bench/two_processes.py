"""Two ``gin serve`` processes against one PostgreSQL, against one, interleaved.

    python3 dev.py bench two_processes [--database-url URL] [--seconds S] [--repeats R]
                                       [--clients N]

    C1  one gin serve process (one granian worker), N clients
    C2  two gin serve processes on the same database, N/2 clients each

Both play the floor bench's variant C (``bench/floor.py``: random legal play, the other seat's
view read when the turn changes hands) at the default log level, measured in turn
(C1 C2 C1 C2 ...), so a busy machine slows them alike. Each client keeps one connection to one
process, as a load balancer keeping connections would: a match is played through one process,
so its cached state is current (no conflict from a stale cache).

Per run: commands per second, the ratio C2/C1 within each repetition, and what share of the
machine each party took: CPU seconds over wall seconds of each server process (its worker
included), of every PostgreSQL process, of this load client, and of everything else on the
machine (from /proc/stat), in cores. The model's prediction for C2/C1 is worked out from C1's
own per-command CPU (``predicted_ratio``): every party shares the machine's cores, and one
server process can use at most one of them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from itertools import count

import psutil

from bench.database import bench_database
from bench.floor import WARM_UP_SECONDS, Run, play_matches, postmaster_pid, spread, tree_cpu
from bench.floor_apps import POOL_MAX_SIZE
from bench.raw_http import Connection
from bench.servers import Server, gin_serve


@dataclass
class Shares:
    """Cores each party used during one run: CPU seconds over wall seconds."""

    servers: list[float] = field(default_factory=list)
    postgres: float = 0.0
    client: float = 0.0
    machine: float = 0.0  # every process on the machine, ours included


@dataclass
class Measured:
    run: Run
    shares: Shares
    client_cpu: float  # the load client's CPU seconds


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy since boot (every core, every process)."""
    times = psutil.cpu_times()
    return float(times.user + times.nice + times.system + times.irq + times.softirq)


async def measure(servers: list[Server], clients: int, seconds: float, postgres: int) -> Measured:
    run = Run()
    seeds = count(1)
    play = play_matches(seeds)
    me = psutil.Process(os.getpid())
    async with AsyncExitStack() as stack:
        # Clients spread evenly over the processes, each on one keep-alive connection.
        connections = [
            await stack.enter_async_context(Connection(servers[i % len(servers)].url))
            for i in range(clients)
        ]
        before = [tree_cpu(s.pid) for s in servers]
        postgres_before, client_before = tree_cpu(postgres), sum(me.cpu_times()[:2])
        machine_before = machine_busy_seconds()
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(play(c, run, deadline) for c in connections))
        run.seconds = wall = time.perf_counter() - started
        spent = [tree_cpu(s.pid) - b for s, b in zip(servers, before, strict=True)]
        run.server_cpu = sum(spent)
        run.postgres_cpu = tree_cpu(postgres) - postgres_before
        client_cpu = sum(me.cpu_times()[:2]) - client_before
        shares = Shares(
            servers=[s / wall for s in spent],
            postgres=run.postgres_cpu / wall,
            client=client_cpu / wall,
            machine=(machine_busy_seconds() - machine_before) / wall,
        )
    return Measured(run, shares, client_cpu)


def predicted_ratio(one: Measured, cores: int, *, alone: bool = False) -> float:
    """C2/C1 as the model has it, from C1's CPU per command (server, PostgreSQL, client).

    Each command needs its CPU on the cores that are free of other work: ``cores`` less what
    the rest of the machine took during C1. One server process can use at most one core. So
    the rate is min(processes / server, free / (server + PostgreSQL + client)) for one and for
    two processes, and the ratio is theirs. ``alone``: as if nothing else ran (free = cores)."""
    run = one.run
    if not run.commands:
        return float("nan")
    server = run.server_cpu / run.commands
    total = (run.server_cpu + run.postgres_cpu + one.client_cpu) / run.commands
    others = max(0.0, one.shares.machine - sum(one.shares.servers))
    others -= one.shares.postgres + one.shares.client
    free = cores if alone else max(cores - max(0.0, others), 1e-9)
    return min(2 / server, free / total) / min(1 / server, free / total)


@contextmanager
def processes(url: str, how_many: int) -> Iterator[list[Server]]:
    env = {"GIN_POOL_MAX_SIZE": str(POOL_MAX_SIZE)}
    with ExitStack() as stack:
        yield [
            stack.enter_context(gin_serve(url, env=env, log_level=None)) for _ in range(how_many)
        ]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


async def run_all(
    args: argparse.Namespace, one: list[Server], two: list[Server], postgres: int
) -> list[tuple[Measured, Measured]]:
    for servers in (one, two):
        await measure(servers, 2, WARM_UP_SECONDS, postgres)
    cores = psutil.cpu_count() or 1
    pairs = []
    for repeat in range(args.repeats):
        print(f"  uptime: {uptime()}", flush=True)
        c1 = await measure(one, args.clients, args.seconds, postgres)
        c2 = await measure(two, args.clients, args.seconds, postgres)
        pairs.append((c1, c2))
        for name, m in (("C1", c1), ("C2", c2)):
            used = " + ".join(f"{s:.2f}" for s in m.shares.servers)
            print(
                f"  repeat {repeat + 1} {name}: {m.run.rate:6.0f} cmd/s, errors {m.run.errors}; "
                f"cores used: server {used}, PostgreSQL {m.shares.postgres:.2f}, "
                f"client {m.shares.client:.2f}, whole machine {m.shares.machine:.2f} of {cores}",
                flush=True,
            )
        print(
            f"  repeat {repeat + 1}: C2/C1 {c2.run.rate / c1.run.rate:.2f}, "
            f"model {predicted_ratio(c1, cores):.2f} "
            f"(on a machine of its own {predicted_ratio(c1, cores, alone=True):.2f})",
            flush=True,
        )
    return pairs


def print_summary(args: argparse.Namespace, pairs: list[tuple[Measured, Measured]]) -> None:
    cores = psutil.cpu_count() or 1
    print(
        f"\ntwo processes: median (min-max) of {args.repeats} interleaved repetitions of "
        f"{args.seconds:g} s at {args.clients} clients, {cores} cores"
    )
    for index, name in ((0, "C1"), (1, "C2")):
        ms = [pair[index] for pair in pairs]
        runs = [m.run for m in ms]
        server_cores = [sum(m.shares.servers) for m in ms]
        print(
            f"  {name}: {spread([r.rate for r in runs], 0)} cmd/s; "
            f"server CPU {spread([r.per_command_ms(r.server_cpu) for r in runs], 2)} ms/cmd, "
            f"PostgreSQL {spread([r.per_command_ms(r.postgres_cpu) for r in runs], 2)} ms/cmd, "
            f"client {spread([m.client_cpu / max(m.run.commands, 1) * 1000 for m in ms], 2)} "
            f"ms/cmd; cores: servers {spread(server_cores, 2)}, "
            f"PostgreSQL {spread([m.shares.postgres for m in ms], 2)}, "
            f"client {spread([m.shares.client for m in ms], 2)}, "
            f"machine {spread([m.shares.machine for m in ms], 2)}"
        )
    ratios = [c2.run.rate / c1.run.rate for c1, c2 in pairs if c1.run.rate]
    predicted = [predicted_ratio(c1, cores) for c1, _ in pairs]
    alone = [predicted_ratio(c1, cores, alone=True) for c1, _ in pairs]
    print(
        f"  C2/C1 measured {spread(ratios, 2)}, model {spread(predicted, 2)} "
        f"(the same model on a machine of its own: {spread(alone, 2)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="PostgreSQL server to use (default: embedded)")
    parser.add_argument("--seconds", type=float, default=6.0, help="per measurement (6)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (5)")
    parser.add_argument("--clients", type=int, default=8, help="clients in all (8)")
    args = parser.parse_args()
    with (
        bench_database(args.database_url, "gin_two") as url,
        processes(url, 1) as one,
        processes(url, 2) as two,
    ):
        pairs = asyncio.run(run_all(args, one, two, postmaster_pid(url)))
    print_summary(args, pairs)


if __name__ == "__main__":
    main()
