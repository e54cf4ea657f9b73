"""Commands over real HTTP against raw psycopg INSERT + COMMIT on the same PostgreSQL.

    python3 dev.py bench http [--database-url URL] [--seconds S] [--clients 1 8 32]
                              [--servers uvicorn granian] [--workers N]

For each ASGI server, ``gin serve`` runs as its own process; N clients (one per concurrent
match, playing both seats with uniformly random legal commands, a new match whenever one ends)
send commands over keep-alive HTTP for S seconds. Each command's latency is the time from
sending the request to reading the new view. The reference is N connections, each inserting
one row and committing, for the same time, on the same PostgreSQL. Targets: at 8 clients, at
least 0.5x the raw commits per second, and p99 under 50 ms.

Without a URL it runs an embedded PostgreSQL in a temporary folder (fsync on, as deployed).
The clients run in this process, on the same machine as the server and the database. The
service runs at its default log level (INFO: a JSON line per request), as deployed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx
import psutil

from adapters.postgres.migrate import upgrade
from bench.database import temporary_database
from bench.players import UNIFORM, choose
from bench.reference import raw_inserts
from bench.servers import gin_serve

# Room for 32 clients' concurrent commands in the one worker's pool.
SERVER_ENV = {"GIN_POOL_MAX_SIZE": "40"}


@dataclass
class Run:
    """What one measurement collected: a latency (seconds) per operation, and errors."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0  # CPU seconds the server processes spent, when measured

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_operation(self) -> float:
        return self.server_cpu / len(self.latencies) * 1000 if self.latencies else float("nan")

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


async def for_seconds(
    clients: int, seconds: float, client: Callable[[Run, float], Awaitable[None]]
) -> Run:
    run = Run()
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(client(run, deadline) for _ in range(clients)))
    run.seconds = time.perf_counter() - started
    return run


async def raw_reference(url: str, connections: int, seconds: float) -> Run:
    """The reference (``bench.reference``) as a ``Run``, so both sit in one table."""
    raw = await raw_inserts(url, connections, seconds=seconds)
    return Run(latencies=raw.latencies, seconds=raw.seconds)


# --- the service: random legal clients over HTTP ----------------------------------------


def http_client(base_url: str, seed: Iterator[int]) -> Callable[[Run, float], Awaitable[None]]:
    async def play(run: Run, deadline: float) -> None:
        rng = random.Random(next(seed))
        limits = httpx.Limits(max_connections=2, max_keepalive_connections=2)
        async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30) as http:
            while time.perf_counter() < deadline:
                await _play_match(http, rng, run, deadline)

    return play


async def _play_match(
    http: httpx.AsyncClient, rng: random.Random, run: Run, deadline: float
) -> None:
    created = (await http.post("/matches", json={})).json()
    path = f"/matches/{created['match_id']}"
    headers = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
    view = (await http.get(f"{path}/view", headers=headers[0])).json()
    while time.perf_counter() < deadline and view["phase"] != "match_over":
        seat = view["turn"]
        if seat != view["seat"]:
            view = (await http.get(f"{path}/view", headers=headers[seat])).json()
        action = choose(view, rng, UNIFORM)
        sent = time.perf_counter()
        response = await http.post(f"{path}/commands", json=action, headers=headers[seat])
        if response.status_code != 200:
            run.errors += 1
            view = (await http.get(f"{path}/view", headers=headers[seat])).json()
            continue
        view = response.json()
        run.latencies.append(time.perf_counter() - sent)


# --- processes: the database and the server's CPU --------------------------------------------


@contextmanager
def database(url: str | None) -> Iterator[str]:
    if url is not None:
        upgrade(url)
        yield url
        return
    with temporary_database("gin") as url:
        upgrade(url)
        yield url


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and all its children (a server's workers)."""
    process = psutil.Process(pid)
    total = 0.0
    for each in (process, *process.children(recursive=True)):
        times = each.cpu_times()
        total += times.user + times.system
    return total


# --- the run -----------------------------------------------------------------------------


async def measure(args: argparse.Namespace, url: str) -> list[tuple[str, int, Run, Run]]:
    seeds = iter(range(1, 10**9))
    rows = []
    raw = {n: await raw_reference(url, n, args.seconds) for n in args.clients}
    for server in args.servers:
        options = ("--server", server, "--workers", str(args.workers))
        # gin serve's default log level: a deployment pays for its request log, so this does too.
        with gin_serve(url, *options, env=SERVER_ENV, log_level=None) as served:
            base_url, pid = served.url, served.pid
            await for_seconds(2, 1.0, http_client(base_url, seeds))  # warm up
            for clients in args.clients:
                cpu = cpu_seconds(pid)
                run = await for_seconds(clients, args.seconds, http_client(base_url, seeds))
                run.server_cpu = cpu_seconds(pid) - cpu
                rows.append((server, clients, run, raw[clients]))
    return rows


def print_table(rows: list[tuple[str, int, Run, Run]], workers: int) -> None:
    print(f"\ncommands over HTTP ({workers} worker process(es)) vs raw INSERT + COMMIT")
    header = (
        f"{'server':<9} {'clients':>7} {'commands/s':>11} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'errors':>6} {'cpu ms':>6} | {'raw/s':>8} {'raw p50':>7} {'raw p99':>7} | {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    for server, clients, run, raw in rows:
        print(
            f"{server:<9} {clients:>7} {run.rate:>11.0f} {run.percentile(50):>7.1f} "
            f"{run.percentile(99):>7.1f} {run.errors:>6} {run.cpu_ms_per_operation:>6.2f} | "
            f"{raw.rate:>8.0f} "
            f"{raw.percentile(50):>7.2f} {raw.percentile(99):>7.2f} | {run.rate / raw.rate:>6.2f}"
        )
    print("cpu ms: CPU time of the server processes per command (all requests counted)")
    print("targets: ratio >= 0.5 and p99 < 50 ms at 8 clients")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="PostgreSQL to use (default: embedded)")
    parser.add_argument("--seconds", type=float, default=8.0, help="per measurement (8)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--servers", nargs="+", default=["uvicorn", "granian"])
    parser.add_argument("--workers", type=int, default=1, help="server processes (1)")
    args = parser.parse_args()
    with database(args.database_url) as url:
        rows = asyncio.run(measure(args, url))
    print_table(rows, args.workers)


if __name__ == "__main__":
    main()
