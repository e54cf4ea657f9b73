"""A real ``gin serve`` started while its database is down, and one whose database freezes
(every PostgreSQL process SIGSTOPped: connections stay open, nothing answers). Either way every
request is answered 503 with Retry-After within the database timeout, not held, and the
service recovers by itself once the database answers again."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest

from bench.servers import gin_serve
from tests.api.players import LONG_GAME, create_table
from tests.faults.conftest import Outage
from tests.faults.load import (
    MARGIN,
    TIMEOUT,
    Record,
    Target,
    audit_every_match,
    call,
    random_command,
    view_to_move,
)

RECOVERY_SECONDS = 15.0  # a bound on a loaded machine: retries at Retry-After, migration
FROZEN_REQUESTS = 6

pytestmark = pytest.mark.slow


def check_refused(response: httpx.Response, took: float) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == "/problems/database-unavailable"
    assert int(response.headers["retry-after"]) >= 1
    assert took < TIMEOUT + MARGIN, took


async def timed(http: httpx.AsyncClient, method: str, path: str, **kwargs: object) -> float:
    started = time.monotonic()
    response = await http.request(method, path, **kwargs)  # type: ignore[arg-type]
    took = time.monotonic() - started
    check_refused(response, took)
    return took


async def until_ready(http: httpx.AsyncClient) -> None:
    async with asyncio.timeout(RECOVERY_SECONDS):
        while (await http.get("/health/ready")).status_code != 200:
            await asyncio.sleep(0.2)


async def test_a_server_started_while_the_database_is_down_answers_503_then_recovers(
    database_back: Outage,
) -> None:
    outage = database_back
    outage.stop()
    with gin_serve(outage.url, ready_path="/health/live") as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            ready = await http.get("/health/ready")
            assert ready.status_code == 503
            assert ready.json()["database"] == "unreachable"
            await timed(http, "POST", "/matches", json={})
            await timed(http, "GET", f"/matches/{uuid.uuid4()}/events")
            assert (await http.get("/health/live")).status_code == 200

            await asyncio.to_thread(outage.start)
            await until_ready(http)
            table = await create_table(http, **LONG_GAME)
            view = await view_to_move(http, Target(server.url), table)
            command = await http.post(
                f"{table.path}/commands",
                json=random_command(view, 3),
                headers=table.headers(view["seat"]),
            )
            assert command.status_code == 200, command.text
        assert "Traceback" not in server.output()


async def test_a_frozen_database_gets_requests_answered_503_in_bounded_time(
    database_back: Outage,
) -> None:
    outage = database_back
    with gin_serve(outage.url) as server:
        target = Target(server.url)
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            table = await create_table(http, **LONG_GAME)
            view = await view_to_move(http, target, table)
            command = random_command(view, 5)
            headers = {**table.headers(view["seat"]), "Idempotency-Key": "frozen-1"}

            with outage.frozen():
                # Some at once (the pool's idle connections are handed out and cut off), then
                # one after another (new connections that never get an answer).
                await asyncio.gather(
                    *(
                        timed(http, "GET", f"{table.path}/view", headers=table.headers(0))
                        for _ in range(FROZEN_REQUESTS)
                    )
                )
                await timed(http, "POST", f"{table.path}/commands", json=command, headers=headers)
                await timed(http, "POST", "/matches", json={})
                await timed(http, "GET", f"{table.path}/events")
                ready = await http.get("/health/ready")
                assert ready.status_code == 503

            # Thawed: the same command with the same key is applied once, whether or not the
            # frozen server went on to commit it when it woke.
            record = Record()
            async with asyncio.timeout(RECOVERY_SECONDS):
                answer = await call(
                    http,
                    target,
                    record,
                    "POST",
                    f"{table.path}/commands",
                    json=command,
                    headers=headers,
                )
            assert answer.status_code == 200, answer.text
            events = (await http.get(f"{table.path}/events")).json()["events"]
            assert [e["version"] for e in events] == list(range(1, len(events) + 1))
            assert answer.json()["version"] == events[-1]["version"]
            await until_ready(http)
        assert "Traceback" not in server.output()
    record.check_answers()
    await audit_every_match(outage.url, [table])
