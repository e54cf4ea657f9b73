"""``python3 dev.py loadtest``: play many matches at once over HTTP, then verify what they
recorded.

    python3 dev.py loadtest [--url URL] [--database-url URL] [--matches M [M ...]] [--rounds N]

Without ``--url`` it starts ``gin serve`` on a free port (over ``--database-url``, or an
embedded PostgreSQL in a temporary folder). It exits 0 only when no request failed, every
match finished and every finished match's record verified clean.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager

from bench.database import temporary_database
from bench.loadtest.report import failures, table
from bench.loadtest.run import Level, LoadOptions, run_levels
from bench.servers import gin_serve
from cli.serve import DEFAULT_SERVER, SERVERS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 dev.py loadtest",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", help="a running service (default: start one of its own)")
    parser.add_argument(
        "--database-url",
        help="its PostgreSQL: where the raw INSERT reference is measured, and the database "
        "of the service it starts (default: an embedded one in a temporary folder)",
    )
    parser.add_argument(
        "--matches",
        type=_positive,
        nargs="+",
        default=[8],
        metavar="M",
        help="concurrent matches; several values run one level each (default: 8)",
    )
    parser.add_argument(
        "--rounds", type=_positive, default=2, help="matches each pair of clients plays in turn"
    )
    parser.add_argument(
        "--game-target", type=_positive, default=30, help="game target of each match (one game)"
    )
    parser.add_argument("--seed", default="gin", help="seed of the clients' choices")
    parser.add_argument(
        "--raw-seconds", type=float, default=3.0, help="how long the raw reference runs"
    )
    parser.add_argument(
        "--workers", type=_positive, default=1, help="server processes it starts (default: 1)"
    )
    parser.add_argument(
        "--server", choices=SERVERS, default=DEFAULT_SERVER, help="the ASGI server it starts"
    )
    parser.add_argument("--log-level", default="warning", help="log level of the server it starts")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    options = LoadOptions(
        matches=tuple(args.matches),
        rounds=args.rounds,
        game_target=args.game_target,
        seed=args.seed,
        raw_seconds=args.raw_seconds,
    )
    if args.url:
        where = f"the service at {args.url}"
        levels = asyncio.run(run_levels(args.url, args.database_url, options))
    else:
        with own_service(args) as (url, database_url):
            where = f"gin serve at {url} ({args.workers} {args.server} worker(s))"
            levels = asyncio.run(run_levels(url, database_url, options))
    return report(levels, where)


@contextmanager
def own_service(args: argparse.Namespace) -> Iterator[tuple[str, str]]:
    """``gin serve`` of the run's own, over ``--database-url`` or a throwaway embedded
    PostgreSQL (durable, fsync on, as deployed): its URL and its database's."""
    with ExitStack() as stack:
        database_url = args.database_url or stack.enter_context(temporary_database("gin"))
        server = stack.enter_context(
            gin_serve(
                database_url,
                *("--workers", str(args.workers), "--server", args.server),
                *("--log-level", args.log_level),
            )
        )
        yield server.url, database_url


def report(levels: list[Level], where: str) -> int:
    print(f"loadtest: {where}, matches to game target (one game), two clients each")
    print(table(levels))
    if any(level.raw_inserts_per_second is None for level in levels):
        print("raw INSERT/s: not measured (give --database-url to measure it)")
    problems = failures(levels)
    for line in problems:
        print(line)
    passed = all(level.passed for level in levels)
    print("PASS: no errors, every record clean" if passed else "FAIL")
    return 0 if passed else 1


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value
