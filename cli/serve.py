"""``gin serve``: the HTTP service, over an embedded PostgreSQL unless told of another.

The database is made ready (started if embedded, migrated) before any worker starts; each
worker builds its app from the environment (``web.app:create_app_from_env``), so any
number of them, on any number of machines, serve the same matches.
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import msgspec

from adapters.postgres.database import Database, migration_url, open_database
from adapters.postgres.embedded_watch import watch
from adapters.postgres.migrate import cannot_reach, upgrade_when_reachable
from web.environment import LOG_LEVELS, Accepts, one_of
from web.parent_death import SERVER_PID, WORKER_STOP_SECONDS, kill_forked_workers_with_server
from web.settings import Settings

APP_FACTORY = "web.app:create_app_from_env"
# Chosen by measuring with bench/http.py (docs/api.md, "Server"): as fast as uvicorn with one
# worker, and uvicorn's multi-process mode answered each request ~45 ms late here.
SERVERS = ("uvicorn", "granian")
DEFAULT_SERVER = "granian"
SERVER = Accepts(f"one of {', '.join(SERVERS)}", one_of(SERVERS))


def add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    defaults = Settings()
    serve = commands.add_parser(
        "serve",
        help="run the HTTP service",
        description="Run the Gin Rummy HTTP service. Without --database-url (or "
        "$GIN_DATABASE_URL / $DATABASE_URL) it starts an embedded PostgreSQL that keeps its "
        "data in DATA_DIR/postgres. Migrations are applied before the first request.",
    )
    # Options are read as text and checked by ``cli.main.check_options``, as the environment is
    # by ``Settings.from_env``: a bad value is then one line naming it, not argparse's usage.
    serve.add_argument("--host", default=None, help=f"address to listen on ({defaults.host})")
    serve.add_argument("--port", default=None, help=f"port ({defaults.port})")
    serve.add_argument("--database-url", help="PostgreSQL to use instead of the embedded one")
    serve.add_argument(
        "--data-dir", help=f"data folder of the embedded database ({defaults.data_dir})"
    )
    serve.add_argument("--workers", default=1, help="server processes (1)")
    serve.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        help=f"ASGI server: {' or '.join(SERVERS)} ({DEFAULT_SERVER})",
    )
    serve.add_argument(
        "--log-level", default=None, help=f"{', '.join(LOG_LEVELS)} ({defaults.log_level})"
    )
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; ``args`` as ``cli.main.check_options`` left them."""
    # Settings first: a bad one stops here, before a database is started or migrated.
    settings = _settings(args)
    if (taken := port_taken(settings.host, settings.port)) is not None:
        # The servers bind with SO_REUSEPORT: without this check a second ``gin serve`` (another
        # version, say) would share the port and silently take half the traffic.
        print(f"gin: cannot serve on {settings.host}:{settings.port}: {taken}", file=sys.stderr)
        return 1
    database = _open_database(settings)
    if database.embedded is not None:
        # Stops the embedded server should this process be killed outright.
        watch(database.embedded.data_dir, os.getpid())
    try:
        settings = msgspec.structs.replace(settings, database_url=database.service_url)
        base = f"http://{settings.host}:{settings.port}"
        print(f"gin: serving on {base} ({args.workers} {args.server} worker(s))", flush=True)
        print(f"gin: API docs at {base}/docs", flush=True)
        print(f"gin: database {_describe(database)}", flush=True)
        serve(settings, workers=args.workers, server=args.server)
    finally:
        database.close()
    return 0


def serve(settings: Settings, *, workers: int = 1, server: str = DEFAULT_SERVER) -> None:
    """Run until interrupted; every worker reads ``settings`` from the environment."""
    os.environ.update(settings.to_env())
    os.environ[SERVER_PID] = str(os.getpid())  # its workers stop should it die
    kill_forked_workers_with_server()
    if server == "granian":
        from granian import Granian
        from granian.constants import Interfaces
        from granian.http import HTTP1Settings
        from granian.log import LogLevels

        Granian(
            APP_FACTORY,
            address=settings.host,
            port=settings.port,
            interface=Interfaces.ASGI,
            workers=workers,
            factory=True,
            log_level=LogLevels(settings.log_level.lower()),
            log_access=False,  # the app logs each request itself, as JSON
            workers_kill_timeout=WORKER_STOP_SECONDS,
            # A client gets this long for its headers; the body's own limit is the app's.
            http1_settings=HTTP1Settings(
                header_read_timeout=round(settings.read_timeout_seconds * 1000)
            ),
        ).serve()
        return
    import uvicorn

    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=workers,
        log_level=settings.log_level.lower(),
        access_log=False,  # the app logs each request itself, as JSON
        lifespan="on",
        # uvicorn has no timeout for headers; an idle kept-alive connection is closed after this.
        timeout_keep_alive=max(1, round(settings.read_timeout_seconds)),
    )


def port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on by this server alone, or None if it can.

    Binding without SO_REUSEPORT fails while any socket listens there, with or without it;
    SO_REUSEADDR lets a port whose last connections linger in TIME_WAIT count as free."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as error:
        return f"cannot resolve {host!r}: {error.strerror or error}"
    for family, kind, proto, _, address in infos[:1]:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    return "address already in use (is another gin serve running?)"
                return error.strerror or str(error)
    return None


def _open_database(settings: Settings) -> Database:
    """The database, migrated; or, if a database named by URL does not answer, that database
    as it is, migrated in the background once it answers. The server starts either way, and
    answers 503 with Retry-After (readiness: unreachable) until the database is back."""
    try:
        return open_database(settings.database_url, data_dir=Path(settings.data_dir))
    except Exception as error:
        if settings.database_url is None or not cannot_reach(error):
            raise
    print(
        "gin: the database does not answer; serving 503 until it does, migrating then",
        file=sys.stderr,
        flush=True,
    )
    upgrade_when_reachable(migration_url(settings.database_url), _report)
    return Database(settings.database_url)


def _report(message: str) -> None:
    print(f"gin: {message}", file=sys.stderr, flush=True)


def _settings(args: argparse.Namespace) -> Settings:
    settings = Settings.from_env()
    overrides = {
        "host": args.host,
        "port": args.port,
        "database_url": args.database_url,
        "data_dir": str(args.data_dir) if args.data_dir else None,
        "log_level": args.log_level,
    }
    return msgspec.structs.replace(
        settings, **{name: value for name, value in overrides.items() if value is not None}
    )


def _describe(database: Database) -> str:
    if database.embedded is not None:
        return f"embedded, data in {database.embedded.data_dir}"
    # Never print a password: user, host, port and database name only.
    # Hosts as given, so a primary and its standby (``h1:5432,h2:5432``) are both shown.
    parts = urlsplit(database.url)
    hosts = parts.netloc.rpartition("@")[2]
    netloc = f"{parts.username or ''}@{hosts}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
