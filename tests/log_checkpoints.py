"""Waiting for a log checkpoint that covers what a test wrote: a checkpoint covers the log up to
the oldest transaction still open (on the whole PostgreSQL server), so the first one asked for
can stop short of events already committed."""

from __future__ import annotations

import asyncio
import time

import httpx

from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.notes import parse_note


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
