"""``gin db accept-restore``: the operator's decision, after a restore that lost acknowledged
history, to serve the log as it now is. Recorded beside the published checkpoint it overrides
(``acceptances.jsonl``), with the reason given; servers refusing writes take them again at
their next request."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from adapters.postgres.database import open_database
from adapters.postgres.event_store import open_pool
from service.audit.restore_check import accept_restore, compare
from service.ports.clock import system_clock
from web.composition.storage import Storage
from web.settings import Settings


def add_accept_restore(
    db_commands: argparse._SubParsersAction[argparse.ArgumentParser],
    add_database_options: Callable[[argparse.ArgumentParser], None],
) -> None:
    accept = db_commands.add_parser(
        "accept-restore",
        help="serve the log as it is after a restore that lost acknowledged history",
    )
    add_database_options(accept)
    accept.add_argument(
        "--reason", required=True, help="why (kept with the decision, for whoever asks later)"
    )
    accept.add_argument(
        "--check",
        action="store_true",
        help="only say what is missing, decide nothing (exit 1 if something is)",
    )
    accept.set_defaults(run=run_accept_restore)


def run_accept_restore(args: argparse.Namespace) -> int:
    environ = dict(os.environ)
    if args.data_dir:
        environ["GIN_DATA_DIR"] = str(args.data_dir)
    folder = Settings.from_env(environ).published_log_path()
    database = open_database(args.database_url, data_dir=args.data_dir, migrate=False)
    try:
        return asyncio.run(_accept(database.url, folder, args.reason, check=args.check))
    finally:
        database.close()


async def _accept(url: str, folder: Path, reason: str, *, check: bool) -> int:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        storage = Storage.on(pool)
        published, tree = storage.published_log(folder), storage.log_tree()
        if check:
            kept = await published.last()
            missing = None if kept is None else await compare(tree, kept)
            print("nothing is missing" if missing is None else missing.detail())
            return 0 if missing is None else 1
        acceptance = await accept_restore(published, tree, reason, system_clock)
    if acceptance is None:
        print("nothing to accept: the log has every event of the last published checkpoint")
        return 0
    print(
        f"accepted: the log as it is ({acceptance.found} events; the checkpoint published at "
        f"{acceptance.published.published_at.isoformat()} covered {acceptance.published.size})"
        f"; recorded {msgspec.json.encode(acceptance.accepted_at).decode()}"
    )
    return 0
