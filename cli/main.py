"""The ``gin`` command. Each subcommand group registers itself in ``build_parser``.

gin serve [--host H] [--port P] [--database-url URL]   run the HTTP service (see serve)
gin db upgrade [--database-url URL] [--data-dir DIR]   migrate the database to the newest schema
gin db accept-restore --reason TEXT                     serve a restored log that lost history
gin operator create-key --name NAME --scope SCOPE ...   make an operator API key (see operator_cli)
gin verify RECORD.json                                  check a game record, offline (see audit)
gin audit MATCH_ID [--database-url URL]                 check a match against the database
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from adapters.postgres.database import migration_url, open_database
from adapters.postgres.migrate import CONNECT_TIMEOUT_SECONDS, cannot_reach
from adapters.postgres.roles import APP_ROLE, ensure_login
from cli.audit import add_audit_commands
from cli.operators import add_operator_commands
from cli.restore import add_accept_restore
from cli.serve import SERVER, add_serve_command
from cli.witness import add_witness_command
from web.environment import (
    AT_LEAST_ONE,
    DATABASE_ENVIRONMENT,
    DATABASE_URL,
    FOLDER,
    HOST,
    LOG_LEVEL,
    PORT,
    Accepts,
    SettingError,
    check_environment,
)

# What each option that names a setting accepts, by its argparse ``dest``, in any subcommand.
OPTIONS: dict[str, Accepts[Any]] = {
    "host": HOST,
    "port": PORT,
    "database_url": DATABASE_URL,
    "data_dir": FOLDER,
    "workers": AT_LEAST_ONE,
    "server": SERVER,
    "log_level": LOG_LEVEL,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gin", description="The Gin Rummy game service.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_serve_command(commands)
    add_db_commands(commands)
    add_operator_commands(commands, add_database_options)
    add_audit_commands(commands)
    add_witness_command(commands)
    return parser


def add_database_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--database-url",
        help="PostgreSQL to use (default: $GIN_DATABASE_URL or $DATABASE_URL; "
        "without one, an embedded server)",
    )
    parser.add_argument(
        "--data-dir",
        help="the service's data folder; the embedded server keeps its data in DIR/postgres "
        "(default: $GIN_DATA_DIR or .data)",
    )


def add_db_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    db = commands.add_parser("db", help="manage the database")
    db_commands = db.add_subparsers(dest="db_command", required=True, metavar="DB_COMMAND")
    upgrade = db_commands.add_parser("upgrade", help="apply every pending migration")
    add_database_options(upgrade)
    upgrade.add_argument(
        "--grant-app-to",
        metavar="LOGIN",
        help="then grant the application role gin_app to LOGIN (the login the service serves "
        "through), creating it without a password if it does not exist",
    )
    upgrade.set_defaults(run=run_db_upgrade)
    add_accept_restore(db_commands, add_database_options)


def run_db_upgrade(args: argparse.Namespace) -> int:
    try:
        database = open_database(args.database_url, data_dir=args.data_dir, migrate=True)
    except Exception as error:
        if not cannot_reach(error):
            raise
        # One line, as for a bad setting: the URL's password is never printed.
        print(
            f"gin: the database does not answer (gave up after {CONNECT_TIMEOUT_SECONDS} s "
            f"waiting to connect): {_cause(error)}",
            file=sys.stderr,
        )
        return 1
    try:
        where = f" (embedded, in {database.embedded.data_dir})" if database.embedded else ""
        print(f"the database is at the newest schema{where}")
        if args.grant_app_to:
            ensure_login(migration_url(database.url), args.grant_app_to)
            print(f"{args.grant_app_to} is granted {APP_ROLE}")
    finally:
        database.close()
    return 0


def _cause(error: Exception) -> str:
    cause = getattr(error, "orig", None) or error
    return str(cause).splitlines()[0] if str(cause) else type(cause).__name__


def check_options(args: argparse.Namespace) -> None:
    """Replace each option given as text by its value, or raise ``SettingError`` naming it."""
    for dest, accepts in OPTIONS.items():
        text = getattr(args, dest, None)
        if isinstance(text, str):  # not a default, which is a value already
            setattr(args, dest, accepts.read("--" + dest.replace("_", "-"), text))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        check_options(args)
        if hasattr(args, "database_url"):
            # Every command with a database reads these; gin serve checks the rest itself.
            check_environment(os.environ, DATABASE_ENVIRONMENT)
        status: int = args.run(args)
    except SettingError as error:
        # One line naming the setting, not a traceback; 2, as argparse exits on a bad option.
        print(f"gin: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
