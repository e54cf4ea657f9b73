"""``gin operator``: make, list and revoke operator keys (there is no HTTP route for this).

gin operator create-key --name NAME --scope SCOPE [--scope SCOPE ...]   print a new key once
gin operator list-keys                                                  every key, no secrets
gin operator revoke-key KEY_ID                                          revoke one key for good
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable

from adapters.postgres.database import open_database
from adapters.postgres.event_store import open_pool
from service.ports.operator_keys import SCOPES
from service.tournament.operators import OperatorKeys, check_scopes
from web.composition.storage import Storage

AddDatabaseOptions = Callable[[argparse.ArgumentParser], None]


def add_operator_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    add_database_options: AddDatabaseOptions,
) -> None:
    operator = commands.add_parser("operator", help="manage operator API keys")
    sub = operator.add_subparsers(dest="operator_command", required=True, metavar="OPERATOR_CMD")

    create = sub.add_parser("create-key", help="create an operator key and print it once")
    create.add_argument("--name", required=True, help="the operator (created on its first key)")
    create.add_argument(
        "--scope",
        action="append",
        required=True,
        choices=SCOPES,
        help="what the key may do; repeat for several",
    )
    add_database_options(create)
    create.set_defaults(run=run_create_key)

    listing = sub.add_parser("list-keys", help="list every key (never the keys themselves)")
    add_database_options(listing)
    listing.set_defaults(run=run_list_keys)

    revoke = sub.add_parser("revoke-key", help="revoke a key by its id")
    revoke.add_argument("key_id")
    add_database_options(revoke)
    revoke.set_defaults(run=run_revoke_key)


def run_create_key(args: argparse.Namespace) -> int:
    scopes = check_scopes(args.scope)

    async def create(keys: OperatorKeys) -> int:
        new = await keys.create_key(args.name, scopes)
        print(f"operator: {new.operator.name}")
        print(f"key id:   {new.operator.key_id}")
        print(f"scopes:   {' '.join(new.operator.scopes)}")
        print(f"key:      {new.key}")
        print("Keep the key now: only its hash is stored, it cannot be shown again.")
        return 0

    return _with_keys(args, create)


def run_list_keys(args: argparse.Namespace) -> int:
    async def show(keys: OperatorKeys) -> int:
        for info in await keys.list_keys():
            state = f"revoked {info.revoked_at:%Y-%m-%d}" if info.revoked_at else "live"
            print(f"{info.key_id}  {info.operator}  {','.join(info.scopes)}  {state}")
        return 0

    return _with_keys(args, show)


def run_revoke_key(args: argparse.Namespace) -> int:
    async def revoke(keys: OperatorKeys) -> int:
        if await keys.revoke_key(args.key_id):
            print(f"revoked {args.key_id}")
            return 0
        print(f"no live key has the id {args.key_id}")
        return 1

    return _with_keys(args, revoke)


def _with_keys(args: argparse.Namespace, action: Callable[[OperatorKeys], Awaitable[int]]) -> int:
    database = open_database(args.database_url, data_dir=args.data_dir, migrate=True)

    async def run() -> int:
        async with open_pool(database.url, min_size=1, max_size=1) as pool:
            return await action(Storage.on(pool).operator_keys())

    try:
        return asyncio.run(run())
    finally:
        database.close()
