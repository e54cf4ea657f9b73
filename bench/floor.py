"""The floor benchmark: a command over HTTP against the least a request could do, interleaved.

    python3 dev.py bench floor [--database-url URL] [--seconds S] [--repeats R]
                               [--clients 1 8 32] [--variants A B C D] [--baseline DIR]

    A  bare Litestar, one INSERT + COMMIT                    (bench/floor_apps.py)
    B  bare Litestar, a SELECT by key, then INSERT + COMMIT  (a command's read and append)
    C  POST /matches/{id}/commands: gin serve at its default log level, random legal play
    D  bare Litestar, JSON in and out, no database

Every variant is served by granian with one worker, on the same PostgreSQL (an embedded one
in a temporary folder, fsync on, unless ``--database-url``), and all four run at once, idle but
for their turn. Each repetition measures every client count, and for each the variants in
turn (A B C D A B C D ...), so a busy, shared machine slows them alike; the ratios C/A and C/B
are taken within a repetition. One load client for all: ``bench.raw_http``, one keep-alive
connection per client, in this process.

Per variant: commands per second, p50 and p99 latency (sent to answer read), and CPU per
command of the server's processes and of every PostgreSQL process, median and range over the
repetitions. C's client also creates matches and reads the other seat's view: those requests
cost the server too, and are counted into its CPU per command (``req/cmd`` says how many).

``--baseline DIR`` adds C0: C served from another checkout (say, ``git archive`` of an earlier
commit unpacked in DIR), measured in turn with the others: before and after in one run, with
the ratio C/C0.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from itertools import count
from typing import Any

import psutil
import psycopg

from bench.database import bench_database, sibling_database
from bench.floor_apps import POOL_MAX_SIZE, drop, prepare
from bench.players import UNIFORM, choose
from bench.raw_http import Connection, bearer
from bench.servers import Server, gin_serve, served

VARIANTS = ("A", "B", "C", "D")
BASELINE = "C0"  # C as served from another checkout, with --baseline
DESCRIBED = {
    BASELINE: "C, served from the --baseline checkout",
    "A": "bare Litestar, INSERT + COMMIT",
    "B": "bare Litestar, SELECT then INSERT + COMMIT",
    "C": "POST /matches/{id}/commands, random legal play",
    "D": "bare Litestar, JSON only, no database",
}
OP = b'{"type":"discard","card":"7h"}'
WARM_UP_SECONDS = 1.0
Json = dict[str, Any]


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    errors: int = 0
    seconds: float = 0.0
    server_cpu: float = 0.0
    postgres_cpu: float = 0.0

    @property
    def commands(self) -> int:
        return len(self.latencies)

    @property
    def rate(self) -> float:
        return self.commands / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def per_command_ms(self, cpu_seconds: float) -> float:
        return cpu_seconds / self.commands * 1000 if self.commands else float("nan")


Client = Callable[[Connection, Run, float], Awaitable[None]]


# --- what each client does ---------------------------------------------------------------


async def post_op(connection: Connection, run: Run, deadline: float) -> None:
    while time.perf_counter() < deadline:
        sent = time.perf_counter()
        status, _ = await connection.request("POST", "/op", OP)
        run.requests += 1
        if status != 200:
            run.errors += 1
            continue
        run.latencies.append(time.perf_counter() - sent)


def play_matches(seeds: Iterator[int], *, says_version: bool = True) -> Client:
    """``says_version``: the other seat's view is asked for with the version the client has
    seen (``If-None-Match``, another seat's tag), so that a server may answer it from its
    cache; a release before that answered such a tag 304, so C0 does not send it."""

    async def play(connection: Connection, run: Run, deadline: float) -> None:
        rng = random.Random(next(seeds))
        while time.perf_counter() < deadline:
            await _play_match(connection, rng, run, deadline, says_version)

    return play


async def _play_match(
    connection: Connection, rng: random.Random, run: Run, deadline: float, says_version: bool
) -> None:
    async def call(method: str, path: str, body: object = None, headers: bytes = b"") -> Any:
        run.requests += 1
        return await connection.json(method, path, body, headers)

    _, created = await call("POST", "/matches", {})
    path = f"/matches/{created['match_id']}"
    headers = {s["seat"]: bearer(s["token"]) for s in created["seats"]}
    _, view = await call("GET", f"{path}/view", headers=headers[0])
    while time.perf_counter() < deadline and view["phase"] != "match_over":
        seat = view["turn"]
        if seat != view["seat"]:
            seen = f'If-None-Match: "v{view["version"]}-s{view["seat"]}"\r\n'.encode()
            known = seen if says_version else b""
            _, view = await call("GET", f"{path}/view", headers=headers[seat] + known)
        action = choose(view, rng, UNIFORM)
        sent = time.perf_counter()
        status, answer = await call("POST", f"{path}/commands", action, headers[seat])
        if status != 200:
            run.errors += 1
            _, view = await call("GET", f"{path}/view", headers=headers[seat])
            continue
        run.latencies.append(time.perf_counter() - sent)
        view = answer


# --- CPU of process trees ----------------------------------------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process, its live descendants and the children it has reaped."""
    root = psutil.Process(pid)
    times = root.cpu_times()
    total: float = times.user + times.system + times.children_user + times.children_system
    for child in root.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def postmaster_pid(database_url: str) -> int:
    """The PostgreSQL server's main process (it must run on this machine)."""
    # The backend ends with its connection: its parent is asked for while it still runs.
    with psycopg.connect(database_url) as connection:
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        parent = psutil.Process(int(row[0])).parent()
    assert parent is not None, "a backend has the postmaster for parent"
    pid: int = parent.pid
    return pid


# --- the run -----------------------------------------------------------------------------


@dataclass
class Target:
    server: Server
    client: Client


async def measure(target: Target, clients: int, seconds: float, postgres: int) -> Run:
    run = Run()
    async with AsyncExitStack() as stack:
        connections = [
            await stack.enter_async_context(Connection(target.server.url)) for _ in range(clients)
        ]
        server_cpu, postgres_cpu = tree_cpu(target.server.pid), tree_cpu(postgres)
        started = time.perf_counter()
        deadline = started + seconds
        await asyncio.gather(*(target.client(c, run, deadline) for c in connections))
        run.seconds = time.perf_counter() - started
        run.server_cpu = tree_cpu(target.server.pid) - server_cpu
        run.postgres_cpu = tree_cpu(postgres) - postgres_cpu
    return run


@contextmanager
def targets(url: str, variants: list[str], baseline: str | None) -> Iterator[dict[str, Target]]:
    seeds = count(1)
    with ExitStack() as stack:
        found: dict[str, Target] = {}
        for variant in variants:
            if variant in ("C", BASELINE):
                env = {"GIN_POOL_MAX_SIZE": str(POOL_MAX_SIZE)}
                cwd = baseline if variant == BASELINE else None
                # The earlier release serves a database of its own, at its own schema.
                db = stack.enter_context(sibling_database(url, "c0")) if cwd else url
                server = stack.enter_context(gin_serve(db, env=env, log_level=None, cwd=cwd))
                found[variant] = Target(
                    server, play_matches(seeds, says_version=variant != BASELINE)
                )
                continue
            server = stack.enter_context(served(_floor_app(variant.lower(), url)))
            found[variant] = Target(server, post_op)
        yield found


def _floor_app(variant: str, url: str) -> Callable[[int], list[str]]:
    def command(port: int) -> list[str]:
        return [
            *(sys.executable, "-m", "bench.floor_apps", variant),
            *("--port", str(port), "--database-url", url),
        ]

    return command


Results = dict[tuple[str, int], list[Run]]


async def run_all(args: argparse.Namespace, found: dict[str, Target], postgres: int) -> Results:
    for target in found.values():
        await measure(target, 2, WARM_UP_SECONDS, postgres)
    results: Results = {}
    for repeat in range(args.repeats):
        for clients in args.clients:
            for variant in args.variants:
                run = await measure(found[variant], clients, args.seconds, postgres)
                results.setdefault((variant, clients), []).append(run)
                print(
                    f"  repeat {repeat + 1}, {clients:>2} clients, {variant}: "
                    f"{run.rate:>6.0f} cmd/s, p99 {run.percentile(99):5.1f} ms",
                    flush=True,
                )
    return results


# --- the table ---------------------------------------------------------------------------


def spread(values: list[float], digits: int) -> str:
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def print_table(args: argparse.Namespace, results: Results) -> None:
    print(
        f"\nfloor: median (min-max) of {args.repeats} interleaved repetitions of "
        f"{args.seconds:g} s; one granian worker each; gin serve at its default log level"
    )
    for variant in args.variants:
        print(f"  {variant}: {DESCRIBED[variant]}")
    header = (
        f"{'clients':>7} {'':2} {'cmd/s':>17} {'p50 ms':>17} {'p99 ms':>17} "
        f"{'server CPU ms/cmd':>19} {'PostgreSQL CPU ms/cmd':>21} {'req/cmd':>7} {'errors':>6}"
    )
    print(header)
    print("-" * len(header))
    for clients in args.clients:
        for variant in args.variants:
            runs = results[(variant, clients)]
            print(
                f"{clients:>7} {variant:2} {spread([r.rate for r in runs], 0):>17} "
                f"{spread([r.percentile(50) for r in runs], 1):>17} "
                f"{spread([r.percentile(99) for r in runs], 1):>17} "
                f"{spread([r.per_command_ms(r.server_cpu) for r in runs], 2):>19} "
                f"{spread([r.per_command_ms(r.postgres_cpu) for r in runs], 2):>21} "
                f"{statistics.median(r.requests / max(r.commands, 1) for r in runs):>7.2f} "
                f"{sum(r.errors for r in runs):>6}"
            )
        print_ratios(args, results, clients)
    print(
        "ratios are of cmd/s, within each repetition. targets at 8 clients: C/B >= 0.6, "
        "C/A >= 0.5, C's server CPU <= 1.0 ms/cmd, p99 <= 25 ms, PostgreSQL CPU <= 0.4 ms/cmd"
    )


def print_ratios(args: argparse.Namespace, results: Results, clients: int) -> None:
    if "C" not in args.variants:
        return
    service = [r.rate for r in results[("C", clients)]]
    parts = []
    for reference in ("A", "B", "D", BASELINE):
        if reference in args.variants:
            floor = [r.rate for r in results[(reference, clients)]]
            ratios = [c / f for c, f in zip(service, floor, strict=True) if f]
            parts.append(f"C/{reference} {spread(ratios, 2)}")
    print(f"{'':>9} {'   '.join(parts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="PostgreSQL server to use (default: embedded)")
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement (4)")
    parser.add_argument("--repeats", type=int, default=3, help="repetitions (3)")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--baseline", help="a checkout whose C to measure too, as C0")
    args = parser.parse_args()
    if args.baseline:
        args.variants.insert(args.variants.index("C") if "C" in args.variants else 0, BASELINE)
    with bench_database(args.database_url, "gin_floor") as url:
        prepare(url)
        try:
            with targets(url, args.variants, args.baseline) as found:
                results = asyncio.run(run_all(args, found, postmaster_pid(url)))
        finally:
            with psycopg.connect(url, autocommit=True) as connection:
                drop(connection)
    print_table(args, results)


if __name__ == "__main__":
    main()
