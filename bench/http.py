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
The clients run in this process, on the same machine as the server and the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
import psycopg

from adapters.postgres.database import create_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.migrate import upgrade

RAW_TABLE = "CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, data text NOT NULL)"
RAW_INSERT = "INSERT INTO bench_raw (data) VALUES (%s)"
PAYLOAD = '{"type":"discarded","seat":0,"card":"Td"}'


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


# --- the reference: raw INSERT + COMMIT -------------------------------------------------


def raw_client(url: str) -> Callable[[Run, float], Awaitable[None]]:
    async def insert_and_commit(run: Run, deadline: float) -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                await conn.execute(RAW_INSERT, (PAYLOAD,))
                run.latencies.append(time.perf_counter() - sent)

    return insert_and_commit


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
        action = rng.choice(view["legal_actions"])
        sent = time.perf_counter()
        response = await http.post(f"{path}/commands", json=action, headers=headers[seat])
        if response.status_code != 200:
            run.errors += 1
            view = (await http.get(f"{path}/view", headers=headers[seat])).json()
            continue
        view = response.json()
        run.latencies.append(time.perf_counter() - sent)


# --- processes: the database and the servers --------------------------------------------


@contextmanager
def database(url: str | None) -> Iterator[str]:
    if url is not None:
        upgrade(url)
        yield url
        return
    folder = Path(tempfile.mkdtemp(prefix="gin-bench-http-"))
    server = EmbeddedPostgres(folder / "postgres", delete_on_stop=True)
    try:
        create_database(server.url(), "gin")
        url = with_database(server.url(), "gin")
        upgrade(url)
        yield url
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and all its children (a server's workers)."""
    process = psutil.Process(pid)
    total = 0.0
    for each in (process, *process.children(recursive=True)):
        times = each.cpu_times()
        total += times.user + times.system
    return total


@contextmanager
def gin_serve(database_url: str, server: str, workers: int) -> Iterator[tuple[str, int]]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    command = [
        *(sys.executable, "-m", "cli.main", "serve", "--database-url", database_url),
        *("--port", str(port), "--server", server, "--workers", str(workers)),
        *("--log-level", "warning"),
    ]
    env = {**os.environ, "GIN_POOL_MAX_SIZE": "40"}
    with tempfile.TemporaryFile() as log:
        # A session of its own, so the server and its workers can be stopped together.
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        try:
            base_url = f"http://127.0.0.1:{port}"
            _wait_for(base_url, process, log)
            yield base_url, process.pid
        finally:
            process.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _wait_for(base_url: str, process: subprocess.Popen[bytes], log: Any) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise SystemExit(f"gin serve exited:\n{log.read().decode(errors='replace')}")
        try:
            if httpx.get(f"{base_url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("gin serve did not start within 60 s")


# --- the run -----------------------------------------------------------------------------


async def measure(args: argparse.Namespace, url: str) -> list[tuple[str, int, Run, Run]]:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(RAW_TABLE)
    seeds = iter(range(1, 10**9))
    rows = []
    raw = {n: await for_seconds(n, args.seconds, raw_client(url)) for n in args.clients}
    for server in args.servers:
        with gin_serve(url, server, args.workers) as (base_url, pid):
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
