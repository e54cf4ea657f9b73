"""The floor the service is measured against: bare Litestar apps, served by granian as
``gin serve`` serves the service (one worker, no access log), each doing the least a command
could do.

    A  POST /op: one INSERT + COMMIT
    B  POST /op: a SELECT by primary key, then one INSERT + COMMIT (a command's tail read and
       append, with nothing in between)
    D  POST /op: JSON in, JSON out, no database

    python -m bench.floor_apps {a,b,d} --port N [--database-url URL]

The rows go to ``FLOOR_TABLE`` (an ordinary logged table, like ``events``) and the keys B reads
to ``FLOOR_KEYS``; ``prepare`` makes both, the bench drops them after.
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import msgspec
import psycopg
from litestar import Litestar, get, post
from litestar.datastructures import State

from adapters.postgres.event_store import open_pool

FLOOR_TABLE = "bench_floor_rows"
FLOOR_KEYS = "bench_floor_keys"
KEYS = 1000
DATABASE_ENV = "FLOOR_DATABASE_URL"
POOL_MAX_SIZE = 40  # as the service's pool in the floor bench: room for 32 clients

INSERT = f"INSERT INTO {FLOOR_TABLE} (stream_id, type, data) VALUES (%s, %s, %s) RETURNING id"
SELECT = f"SELECT stream_id, version FROM {FLOOR_KEYS} WHERE id = %s"


class Op(msgspec.Struct):
    """What a client sends: about the size of a command."""

    type: str
    card: str | None = None


class Done(msgspec.Struct):
    type: str
    id: int


def prepare(database_url: str) -> None:
    """Create the tables A and B write and read (empty rows, ``KEYS`` keys)."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        drop(connection)
        connection.execute(
            f"CREATE TABLE {FLOOR_TABLE} (id bigserial PRIMARY KEY, stream_id text NOT NULL, "
            "type text NOT NULL, data bytea NOT NULL)"
        )
        connection.execute(
            f"CREATE TABLE {FLOOR_KEYS} (id integer PRIMARY KEY, stream_id text NOT NULL, "
            "version integer NOT NULL)"
        )
        connection.execute(
            f"INSERT INTO {FLOOR_KEYS} SELECT i, 'match-' || i, 0 FROM generate_series(1, %s) i",
            (KEYS,),
        )


def drop(connection: psycopg.Connection[tuple[object, ...]]) -> None:
    connection.execute(f"DROP TABLE IF EXISTS {FLOOR_TABLE}, {FLOOR_KEYS}")


def _row(op: Op) -> tuple[str, str, bytes]:
    return ("match-00000000-0000-0000-0000-000000000000", op.type, msgspec.json.encode(op) * 3)


@post("/op", status_code=200)
async def insert(data: Op, state: State) -> Done:
    async with state.pool.connection() as connection:
        cursor = await connection.execute(INSERT, _row(data))
        row = await cursor.fetchone()
    return Done(data.type, row[0])


@post("/op", status_code=200)
async def select_then_insert(data: Op, state: State) -> Done:
    async with state.pool.connection() as connection:
        cursor = await connection.execute(SELECT, (random.randint(1, KEYS),))
        await cursor.fetchone()
        cursor = await connection.execute(INSERT, _row(data))
        row = await cursor.fetchone()
    return Done(data.type, row[0])


@post("/op", status_code=200)
async def echo(data: Op) -> Done:
    return Done(data.type, len(data.card or ""))


@get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}


def _app(handler: Callable[..., object], database: bool) -> Litestar:
    @asynccontextmanager
    async def pool(app: Litestar) -> AsyncIterator[None]:
        if not database:
            yield
            return
        url = os.environ[DATABASE_ENV]
        async with open_pool(url, min_size=2, max_size=POOL_MAX_SIZE) as opened:
            app.state.pool = opened
            yield

    return Litestar(route_handlers=[handler, health], lifespan=[pool])


def variant_a() -> Litestar:
    return _app(insert, database=True)


def variant_b() -> Litestar:
    return _app(select_then_insert, database=True)


def variant_d() -> Litestar:
    return _app(echo, database=False)


FACTORIES = {"a": "variant_a", "b": "variant_b", "d": "variant_d"}


def main() -> None:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.log import LogLevels

    parser = argparse.ArgumentParser(description="serve one bare floor app with granian")
    parser.add_argument("variant", choices=sorted(FACTORIES))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    if args.database_url:
        os.environ[DATABASE_ENV] = args.database_url
    # As cli/serve.py runs the service: one worker, the app's own (here: no) request log.
    Granian(
        f"bench.floor_apps:{FACTORIES[args.variant]}",
        address="127.0.0.1",
        port=args.port,
        interface=Interfaces.ASGI,
        workers=1,
        factory=True,
        log_level=LogLevels.warning,
        log_access=False,
    ).serve()


if __name__ == "__main__":
    main()
