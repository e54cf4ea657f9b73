"""The connection pool every PostgreSQL adapter shares, and what it does while the database is
unreachable.

Three things keep an outage short and bounded for callers:

- Every failure to reach the database (no connection within the pool's timeout, a connection
  the server closed, a server shutting down) leaves the pool as ``DatabaseUnavailable``, the
  port-level error the use cases know; psycopg's errors never reach them.
- A connection is checked as it is handed out, but only when its socket has something to read:
  an idle connection has nothing to say unless the server said goodbye (a restart, a crash), so
  the hot path pays one ``select`` and no round trip. When one is found dead, every idle
  connection is checked at once: they most likely all died together.
- Reconnection attempts give up after ``RECONNECT_SECONDS`` rather than backing off for
  minutes; a request that finds no connection starts a fresh attempt at once, so the first
  request after the database returns gets a connection without waiting out a backoff.
- A connection handed out for longer than ``hold_timeout`` has its socket shut down under it:
  a database that stopped answering without closing anything (a frozen process, a host gone
  silent) would otherwise hold the request until the kernel gives up on TCP, minutes later.
  Shutting the socket makes the waiting query fail at once as a lost connection (so
  ``DatabaseUnavailable``), where cancelling the task would have psycopg ask the frozen server
  to cancel the query and wait up to 10 s for it; the pool then discards the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool, PoolTimeout, TooManyRequests

from service.errors import DatabaseUnavailable

# How long a reconnection attempt retries (at psycopg_pool's backoff, from 1 s) before it gives
# up and leaves the next one to the next request: also the longest wait for a connection after
# the database is back.
RECONNECT_SECONDS = 0.5
# SQLSTATE classes that mean "the server is gone or going": connection exceptions, and
# operator intervention (shutdown, crash, "cannot connect now" while starting up).
UNREACHABLE_STATES = ("08", "57P")


class GuardedPool(AsyncConnectionPool[AsyncConnection[TupleRow]]):
    """A pool whose ``connection()`` raises ``DatabaseUnavailable`` when the database cannot
    be reached, whether getting the connection or using it (for at most ``hold_timeout``
    seconds, if given)."""

    hold_timeout: float | None = None

    @asynccontextmanager
    async def connection(
        self, timeout: float | None = None
    ) -> AsyncIterator[AsyncConnection[TupleRow]]:
        try:
            async with super().connection(timeout) as conn:
                if self.hold_timeout is None:
                    yield conn
                    return
                timer = asyncio.get_running_loop().call_later(self.hold_timeout, cut_off, conn)
                try:
                    yield conn
                finally:
                    timer.cancel()
        except (PoolTimeout, TooManyRequests) as error:
            raise DatabaseUnavailable() from error
        except psycopg.OperationalError as error:
            if not unreachable(error):
                raise
            raise DatabaseUnavailable() from error


def unreachable(error: psycopg.Error) -> bool:
    """Whether ``error`` says the database cannot be reached (rather than refusing a query)."""
    if isinstance(error, PoolTimeout | TooManyRequests):
        return True
    # No SQLSTATE: the client lost the connection (closed, reset, consuming input failed).
    return error.sqlstate is None or error.sqlstate.startswith(UNREACHABLE_STATES)


def cut_off(conn: AsyncConnection[TupleRow]) -> None:
    """Shut the connection's socket down, so whatever waits on it fails now."""
    if conn.closed:
        return
    # ``fromfd`` duplicates the descriptor; shutting the duplicate down shuts the socket.
    # Already disconnected (OSError): the query fails by itself.
    with (
        socket.fromfd(conn.fileno(), socket.AF_INET, socket.SOCK_STREAM) as sock,
        contextlib.suppress(OSError),
    ):
        sock.shutdown(socket.SHUT_RDWR)


def has_input(conn: AsyncConnection[TupleRow]) -> bool:
    """Whether an idle connection's socket has something to read (or is closed)."""
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    return bool(readable)


@asynccontextmanager
async def open_guarded_pool(
    url: str,
    *,
    min_size: int,
    max_size: int,
    timeout: float,
    hold_timeout: float | None = None,
    wait: bool = True,
) -> AsyncIterator[GuardedPool]:
    """A pool of autocommit connections that waits at most ``timeout`` seconds for one, and
    cuts off one held longer than ``hold_timeout``. Without ``wait`` it opens at once, the
    database reachable or not (a service starting during an outage)."""

    async def check(conn: AsyncConnection[TupleRow]) -> None:
        if conn.closed:
            raise psycopg.OperationalError("the connection is closed")
        if not has_input(conn):
            return
        try:
            await AsyncConnectionPool.check_connection(conn)
        except psycopg.Error:
            await pool.check()  # the other idle connections died with this one, most likely
            raise

    pool = GuardedPool(
        url,
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        reconnect_timeout=RECONNECT_SECONDS,
        check=check,
        # A connection attempt to a host that does not answer gives up as a request would.
        kwargs={"autocommit": True, "connect_timeout": max(1, round(timeout))},
        open=False,
    )
    pool.hold_timeout = hold_timeout
    await pool.open(wait=wait)
    try:
        yield pool
    finally:
        await pool.close()
