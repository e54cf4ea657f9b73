"""What signed receipts and metrics cost: server CPU per command with both on (as deployed)
against the same server with both off, interleaved.

    python3 -m bench.observability_cost [--database-url URL] [--seconds S] [--repeats R]
                                        [--clients N]

    off       gin serve, GIN_RECEIPTS=false GIN_METRICS=false   (the reference)
    receipts  receipts only (GIN_METRICS=false)
    metrics   metrics only (GIN_RECEIPTS=false)
    on        gin serve as deployed: a signed receipt on every command, Prometheus metrics

Both are ``gin serve`` with one granian worker at its default log level, on one PostgreSQL
(an embedded one in a temporary folder unless ``--database-url``), running at once and idle
but for their turn; clients play random legal matches (``bench.floor``'s client, so a
command's CPU includes its share of creating matches and reading views). Each repetition
measures every variant in turn, the order rotating from one repetition to the next, and each
variant's ratio to ``off`` is taken within the repetition. Target: on/off at most 1.10 at 8
clients.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from itertools import count

from bench.database import bench_database
from bench.floor import Run, Target, measure, play_matches, postmaster_pid
from bench.floor_apps import POOL_MAX_SIZE
from bench.servers import gin_serve
from bench.tables import print_table

REFERENCE = "off"
VARIANTS = {
    REFERENCE: {"GIN_RECEIPTS": "false", "GIN_METRICS": "false"},
    "receipts": {"GIN_METRICS": "false"},
    "metrics": {"GIN_RECEIPTS": "false"},
    "on": {},
}
WARM_UP_SECONDS = 2.0
TARGET = 1.10


@contextmanager
def servers(url: str) -> Iterator[dict[str, Target]]:
    seeds = count(1)
    with ExitStack() as stack:
        yield {
            name: Target(
                stack.enter_context(
                    gin_serve(
                        url, env={"GIN_POOL_MAX_SIZE": str(POOL_MAX_SIZE), **env}, log_level=None
                    )
                ),
                play_matches(seeds),
            )
            for name, env in VARIANTS.items()
        }


async def run_all(
    found: dict[str, Target], clients: int, seconds: float, repeats: int, postgres: int
) -> dict[str, list[Run]]:
    for target in found.values():
        await measure(target, clients, WARM_UP_SECONDS, postgres)
    runs: dict[str, list[Run]] = {name: [] for name in found}
    for repeat in range(repeats):
        names = list(found)
        order = names[repeat % len(names) :] + names[: repeat % len(names)]
        for name in order:
            run = await measure(found[name], clients, seconds, postgres)
            runs[name].append(run)
            print(
                f"  repeat {repeat + 1}, {name:>8}: {run.rate:6.0f} cmd/s, "
                f"server {run.per_command_ms(run.server_cpu):.3f} ms CPU/cmd",
                flush=True,
            )
    return runs


def spread(values: list[float], digits: int) -> str:
    return (
        f"{statistics.median(values):.{digits}f} "
        f"({min(values):.{digits}f}-{max(values):.{digits}f})"
    )


def report(runs: dict[str, list[Run]], args: argparse.Namespace) -> None:
    print(
        f"\nreceipts + metrics: median (min-max) of {args.repeats} interleaved repetitions of "
        f"{args.seconds:g} s at {args.clients} clients; one granian worker each"
    )
    rows = []
    for name, variant_runs in runs.items():
        rows.append(
            [
                name,
                spread([r.rate for r in variant_runs], 0),
                spread([r.per_command_ms(r.server_cpu) for r in variant_runs], 3),
                spread([r.percentile(99) for r in variant_runs], 1),
                str(sum(r.errors for r in variant_runs)),
            ]
        )
    print_table(["server", "cmd/s", "server CPU ms/cmd", "p99 ms", "errors"], rows)
    print("server CPU per command against off, within each repetition:")
    for name in runs:
        if name == REFERENCE:
            continue
        ratios = [
            variant.per_command_ms(variant.server_cpu) / off.per_command_ms(off.server_cpu)
            for variant, off in zip(runs[name], runs[REFERENCE], strict=True)
        ]
        verdict = "met" if statistics.median(ratios) <= TARGET else "MISSED"
        target = f"  (target <= {TARGET:.2f}: {verdict})" if name == "on" else ""
        print(f"  {name}/off  {spread(ratios, 3)}{target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="PostgreSQL server to use (default: embedded)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement (5)")
    parser.add_argument("--repeats", type=int, default=6, help="repetitions (6)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (8)")
    args = parser.parse_args()
    with bench_database(args.database_url, "gin_observability") as url, servers(url) as found:
        runs = asyncio.run(
            run_all(found, args.clients, args.seconds, args.repeats, postmaster_pid(url))
        )
    report(runs, args)


if __name__ == "__main__":
    main()
