"""Turn clocks across real ``gin serve`` processes with a clock of a second or two: a deadline
fires exactly once whatever runs; one whose process was killed is fired by another; one that
fell due while no process ran fires when one starts; and a move sent at the last instant races
its timeout like any two commands: exactly one applies."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from bench.servers import gin_serve
from tests.api.players import Table, create_table

FIRES_WITHIN = 30.0  # seconds: generous, on a busy machine a process starts slowly
CLOCK = {"turn_seconds": 1, "game_target": 1, "match_target": 0}

pytestmark = pytest.mark.slow


async def events_of(http: httpx.AsyncClient, table: Table) -> list[dict[str, Any]]:
    response = await http.get(f"{table.path}/events?after=0", headers=table.headers(0))
    assert response.status_code == 200, response.text
    return [
        envelope["event"] | {"version": envelope["version"]}
        for envelope in response.json()["events"]
    ]


def timeouts(events: list[dict[str, Any]], due_at: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "timed_out" and due_at in (None, e["due_at"])]


async def until_timed_out(
    http: httpx.AsyncClient, table: Table, due_at: str
) -> list[dict[str, Any]]:
    """The match's events once the deadline ``due_at`` has fired."""
    give_up = time.monotonic() + FIRES_WITHIN
    while time.monotonic() < give_up:
        events = await events_of(http, table)
        if timeouts(events, due_at):
            return events
        await asyncio.sleep(0.1)
    raise AssertionError(f"the deadline {due_at} did not fire within {FIRES_WITHIN}s")


async def clock_of(http: httpx.AsyncClient, table: Table) -> dict[str, Any]:
    response = await http.get(f"{table.path}/view", headers=table.headers(0))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    clock: dict[str, Any] = body["clock"]
    assert clock is not None, body
    return clock | {"version": body["version"]}


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text)


async def test_a_deadline_of_a_killed_process_is_fired_by_another(fresh_database_url: str) -> None:
    with gin_serve(fresh_database_url) as a, gin_serve(fresh_database_url) as b:
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
            httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
        ):
            table = await create_table(on_a, **CLOCK | {"turn_seconds": 2})
            clock = await clock_of(on_a, table)
            os.killpg(a.pid, signal.SIGKILL)  # before its deadline, which it may have claimed
            assert datetime.now(UTC) < instant(clock["due_at"]), "the test started too late"
            events = await until_timed_out(on_b, table, clock["due_at"])
            [fired] = timeouts(events, clock["due_at"])
            assert instant(fired["at"]) >= instant(fired["due_at"])
            # Nobody plays: the timeouts go on until a seat forfeits, each firing once.
            give_up = time.monotonic() + FIRES_WITHIN * 2
            while time.monotonic() < give_up:
                events = await events_of(on_b, table)
                if any(e["type"] == "match_ended" for e in events):
                    break
                await asyncio.sleep(0.2)
            [ended] = [e for e in events if e["type"] == "match_ended"]
            assert ended["reason"] == "forfeited_on_time"
            fired_for = [e["due_at"] for e in timeouts(events)]
            assert len(fired_for) == len(set(fired_for))


async def test_deadlines_that_fell_due_while_no_process_ran_fire_on_start(
    fresh_database_url: str,
) -> None:
    with gin_serve(fresh_database_url) as first:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            tables = [await create_table(http, **CLOCK) for _ in range(3)]
            clocks = [await clock_of(http, table) for table in tables]
        os.killpg(first.pid, signal.SIGKILL)
    latest = max(instant(clock["due_at"]) for clock in clocks)
    await asyncio.sleep(max(0.0, (latest - datetime.now(UTC)).total_seconds()) + 0.5)
    with gin_serve(fresh_database_url) as second:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            for table, clock in zip(tables, clocks, strict=True):
                events = await until_timed_out(http, table, clock["due_at"])
                assert len(timeouts(events, clock["due_at"])) == 1


async def test_a_move_at_the_last_instant_and_its_timeout_apply_exactly_once(
    fresh_database_url: str,
) -> None:
    outcomes = []
    with gin_serve(fresh_database_url) as a, gin_serve(fresh_database_url) as b:
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
            httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
        ):
            for lead in (0.02, 0.0, -0.01):
                table = await create_table(on_a, **CLOCK)
                clock = await clock_of(on_a, table)
                seat, due = clock["seat"], instant(clock["due_at"])
                wait = (due - datetime.now(UTC)).total_seconds() - lead
                await asyncio.sleep(max(0.0, wait))
                response = await on_b.post(
                    f"{table.path}/commands",
                    json={"type": "choose_dealer", "dealer": seat},
                    headers=table.headers(seat),
                )
                # 409: the move came after its deadline, or lost the race to the timeout's
                # append; 422: it was decided after the timeout, on the table the timeout left.
                assert response.status_code in (200, 409, 422), response.text
                moved = response.status_code == 200
                if moved:
                    events = await events_of(on_a, table)
                else:
                    events = await until_timed_out(on_a, table, clock["due_at"])
                after = [e for e in events if e["version"] > clock["version"]]
                first = after[0]
                assert len(timeouts(events, clock["due_at"])) == (0 if moved else 1)
                if moved:
                    assert first == first | {"type": "dealer_chosen", "seat": seat, "dealer": seat}
                else:
                    assert first["type"] == "timed_out"
                    assert after[1]["type"] == "dealer_chosen"
                    assert after[1]["dealer"] == 1 - seat  # the default: the opponent deals
                outcomes.append(moved)
    assert outcomes  # every race ended in exactly one of the two
