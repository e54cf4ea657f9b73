"""A swarm of slow clients (headers and bodies dribbled a byte at a time, never finished) next
to clients playing normally, on a real ``gin serve``: the normal clients are all served, no
500s, and every slow connection is cut off within the read timeout (``GIN_READ_TIMEOUT_SECONDS``:
granian's header timeout, then the app's body deadline)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from bench.servers import Server, gin_serve
from tests.api.players import LONG_GAME, create_table
from tests.faults.load import Record, Target, player

READ_TIMEOUT = 1.0
MARGIN = 4.0  # a busy two-core machine, on top of the timeout itself
SLOW_HEADERS = 40
SLOW_BODIES = 40
PLAYERS = 4
GIVE_UP_SECONDS = 3 * (READ_TIMEOUT + MARGIN)
DRIBBLE_SECONDS = 0.2  # each slow client sends one byte this often: a never-idle connection

pytestmark = pytest.mark.slow

HEADERS = b"GET /health/live HTTP/1.1\r\nHost: gin\r\nX-Padding: " + b"a" * 10_000
BODY = (
    b"POST /matches HTTP/1.1\r\nHost: gin\r\nContent-Type: application/json\r\n"
    b"Content-Length: 10000\r\n\r\n" + b" " * 10_000
)


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    with gin_serve(database_url, env={"GIN_READ_TIMEOUT_SECONDS": str(READ_TIMEOUT)}) as running:
        yield running


async def dribble(server: Server, request: bytes, *, body: bool) -> tuple[float, bytes]:
    """Send ``request`` a byte at a time after its head (or all of it, for headers) until the
    server closes; how long that took from the first byte, and what it answered."""
    host, port = server.url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    head_end = request.index(b"\r\n\r\n") + 4 if body else 0
    writer.write(request[:head_end])
    started = time.monotonic()

    async def send() -> None:
        for byte in request[head_end:]:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(DRIBBLE_SECONDS)

    sending = asyncio.create_task(send())
    try:
        # Until the server closes the connection; a server that never does fails the test
        # (as too slow) rather than hanging it.
        answer = await asyncio.wait_for(reader.read(), GIVE_UP_SECONDS)
    except ConnectionError:
        answer = b""
    except TimeoutError:
        answer = b"(never closed)"
    took = time.monotonic() - started
    sending.cancel()
    writer.close()
    return took, answer


async def test_slow_clients_are_cut_off_and_normal_clients_are_served(server: Server) -> None:
    record = Record()
    target = Target(server.url)
    # The server closes a kept-alive connection left idle for the read timeout (it waits that
    # long for the next request's headers): a client lets its idle connections go sooner, or a
    # request sent as the server closes one fails.
    limits = httpx.Limits(keepalive_expiry=READ_TIMEOUT / 2)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        tables = [await create_table(http, **LONG_GAME) for _ in range(PLAYERS)]
        stop = asyncio.Event()
        players = [
            asyncio.create_task(player(http, target, table, record, stop, seed))
            for seed, table in enumerate(tables)
        ]
        slow = [
            *(dribble(server, HEADERS, body=False) for _ in range(SLOW_HEADERS)),
            *(dribble(server, BODY, body=True) for _ in range(SLOW_BODIES)),
        ]
        cut_off = await asyncio.gather(*slow)
        served_during_swarm = len(record.acknowledged)
        stop.set()
        await asyncio.wait_for(asyncio.gather(*players), 60)

    header_answers = [answer for _, answer in cut_off[:SLOW_HEADERS]]
    body_answers = [answer for _, answer in cut_off[SLOW_HEADERS:]]
    assert [took for took, _ in cut_off if took >= READ_TIMEOUT + MARGIN] == []
    assert not [answer for answer in header_answers if b" 200 " in answer[:20]]
    assert all(answer.startswith(b"HTTP/1.1 408") for answer in body_answers), body_answers[:3]
    assert served_during_swarm >= PLAYERS, "the normal clients were starved"
    record.check_answers()
    assert record.transport_errors == []
