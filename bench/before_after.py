"""This checkout against an earlier commit, measured interleaved in one run, as ratios.

    python3 dev.py bench before_after --base REV [--rounds 3] [--seconds 6] [--benches http store]

Each round runs ``bench/http.py`` (granian, 8 clients) and ``bench/store.py`` once for each
version, the version that goes first alternating from round to round. Every run measures its
own reference on its own PostgreSQL at the same moment (raw ``INSERT`` + ``COMMIT``), so the
numbers compared are each version's ratio to that reference: a busy, shared machine moves both
sides of a ratio together. The earlier version runs from a temporary ``git worktree`` of REV,
with this checkout's interpreter and packages.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTTP_ROW = re.compile(
    r"^granian\s+8\s+(?P<rate>[\d.]+)\s+(?P<p50>[\d.]+)\s+(?P<p99>[\d.]+)\s+\d+\s+"
    r"(?P<cpu>[\d.]+)\s+\|.*\|\s+(?P<ratio>[\d.]+)\s*$"
)
STORE_ROW = re.compile(r"^(?P<measure>\S.*?)\s{2,}[\d,]+\s+[\d,]+\s+(?P<ratio>[\d.]+)(\s+\S.*)?$")

Samples = dict[str, list[float]]


def run_bench(checkout: Path, name: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", *args],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"bench {name} failed in {checkout}:\n{result.stderr[-3000:]}")
    return result.stdout


def http_samples(output: str) -> dict[str, float]:
    for line in output.splitlines():
        if match := HTTP_ROW.match(line.strip()):
            return {
                "http, 8 clients: commands/s vs raw commits/s": float(match["ratio"]),
                "http, 8 clients: commands/s": float(match["rate"]),
                "http, 8 clients: p99 ms": float(match["p99"]),
                "http, 8 clients: server CPU ms per command": float(match["cpu"]),
            }
    raise SystemExit(f"no granian row at 8 clients in:\n{output}")


def store_samples(output: str) -> dict[str, float]:
    found = {}
    for line in output.splitlines():
        match = STORE_ROW.match(line.strip())
        if match and not line.startswith("measure"):
            found[f"store: {match['measure']} (ratio to raw)"] = float(match["ratio"])
    if not found:
        raise SystemExit(f"no rows in the store benchmark's table:\n{output}")
    return found


def one_round(checkout: Path, benches: list[str], seconds: float, samples: Samples) -> None:
    found: dict[str, float] = {}
    if "http" in benches:
        found |= http_samples(
            run_bench(
                checkout,
                "http",
                "--servers",
                "granian",
                "--clients",
                "8",
                "--seconds",
                str(seconds),
            )
        )
    if "store" in benches:
        found |= store_samples(run_bench(checkout, "store", "--rounds", "1"))
    for measure, value in found.items():
        samples[measure].append(value)


def print_table(before: Samples, after: Samples, rounds: int) -> None:
    measures = [m for m in after if m in before]
    width = max(len(m) for m in measures)
    print(
        f"\nmedians of {rounds} interleaved round(s); 'after/before' > 1 means the change is ahead"
    )
    print(f"{'measure':<{width}}  {'before':>9}  {'after':>9}  {'after/before':>12}")
    print("-" * (width + 36))
    for measure in measures:
        old, new = statistics.median(before[measure]), statistics.median(after[measure])
        better = old / new if "ms" in measure else new / old
        print(f"{measure:<{width}}  {old:>9.2f}  {new:>9.2f}  {better:>12.2f}")
    print("(for p99 and CPU ms, after/before is before/after: lower is better there)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the earlier commit (e.g. main~5)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=6.0, help="per HTTP measurement")
    parser.add_argument(
        "--benches", nargs="+", choices=["http", "store"], default=["http", "store"]
    )
    args = parser.parse_args()
    before: Samples = defaultdict(list)
    after: Samples = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="gin-before-") as folder:
        base = Path(folder) / "checkout"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(base), args.base],
            cwd=ROOT,
            check=True,
        )
        try:
            for number in range(args.rounds):
                order = [(base, before), (ROOT, after)]
                for checkout, samples in order if number % 2 == 0 else reversed(order):
                    print(f"round {number + 1}: {'before' if samples is before else 'after'}")
                    one_round(checkout, args.benches, args.seconds, samples)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT)
    print_table(before, after, args.rounds)


if __name__ == "__main__":
    main()
