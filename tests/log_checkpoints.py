"""Log checkpoints for tests, and waiting for one that covers what a test wrote: a checkpoint
covers the log up to the oldest transaction still open (on the whole PostgreSQL server, other
tests' databases included), so the first one asked for can stop short of events already
committed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.notes import parse_note

Client = AsyncTestClient[Litestar] | httpx.AsyncClient
Params = Mapping[str, str | int | None]  # an event named by position, or by stream and version


async def checkpoint_covering(http: httpx.AsyncClient, size: int, wait: float = 60.0) -> int:
    """The size of the first log checkpoint the server gives out that covers ``size`` events."""
    deadline = time.monotonic() + wait
    while True:
        response = await http.get("/log/checkpoint")
        assert response.status_code == 200, response.text
        published = parse_log_checkpoint(parse_note(response.text).text)[0]
        if published >= size:
            return published
        assert time.monotonic() < deadline, f"no checkpoint covered {size} events"
        await asyncio.sleep(0.05)


async def checkpoint(client: Client) -> tuple[int, bytes]:
    return (await signed_checkpoint(client))[:2]


async def signed_checkpoint(client: Client) -> tuple[int, bytes, str]:
    """A log checkpoint's size, head and signed note."""
    response = await client.get("/log/checkpoint")
    assert response.status_code == 200, response.text
    return (*parse_log_checkpoint(parse_note(response.text).text), response.text)


async def covering(client: Client, *events: Params) -> tuple[int, bytes, str]:
    """A log checkpoint whose log holds every event named (by position, or by stream and
    version): a committed event joins the log once every transaction begun before its own
    has ended, which on a busy server may be a moment later."""
    for _ in range(1_000):
        size, head, note = await signed_checkpoint(client)
        answers = [
            await client.get("/log/proofs/inclusion", params={**event, "size": size})
            for event in events
        ]
        if all(answer.status_code == 200 for answer in answers):
            return size, head, note
        await asyncio.sleep(0.01)
    raise AssertionError(f"the log never reached {events}")
