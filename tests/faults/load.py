"""Players that keep matches going on a real ``gin serve`` through a fault, and the checks every
fault under load ends with: nothing acknowledged lost or applied twice, no 500s, no 503 held
beyond its bound, and ``gin audit`` passing on every match.

A player sends each command with an ``Idempotency-Key`` and, whatever happens to it (a 503, a
connection the server dropped, a server that is gone), sends the same command with the same key
again until it is answered: so the key's answer is the command's one acknowledgement, and a
second, different answer would be a command applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx

from cli.main import main
from tests.api.players import Table, choose
from web.settings import Settings

TIMEOUT = Settings().database_timeout_seconds
MARGIN = 2.0  # a busy two-core machine, on top of each bound itself
# A request to a server that is gone fails at once; the next try waits this long.
RECONNECT_PAUSE = 0.2

Json = dict[str, Any]


@dataclass
class Target:
    """Where the service answers: a test that restarts the server points its players on."""

    url: str


@dataclass
class Record:
    statuses: list[int] = field(default_factory=list)
    slow_refusals: list[float] = field(default_factory=list)
    transport_errors: list[str] = field(default_factory=list)  # each: the request, the error
    # Each Idempotency-Key's acknowledged versions, and the command it carried.
    acknowledged: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    sent: dict[str, tuple[Table, int, Json]] = field(default_factory=dict)
    # Requests refused or cut off at least once and not yet answered (they wait on the fault),
    # and each answered one's (sent, answered) times (``time.monotonic``, retries included):
    # what a fault overlapped.
    held_by_the_fault: int = 0
    spans: list[tuple[float, float]] = field(default_factory=list)

    def across(self, sent_before: float, answered_after: float) -> bool:
        """Whether a request was sent before ``sent_before`` and answered after
        ``answered_after``."""
        return any(
            sent < sent_before and answered_after < answered for sent, answered in self.spans
        )

    def note(self, response: httpx.Response, took: float) -> None:
        self.statuses.append(response.status_code)
        if response.status_code == 503:
            assert int(response.headers["retry-after"]) >= 1
            assert response.json()["type"] == "/problems/database-unavailable"
            if took >= TIMEOUT + MARGIN:
                self.slow_refusals.append(took)

    def check_answers(self) -> None:
        """No 500s, and every 503 came within its bound."""
        assert all(status < 500 or status == 503 for status in self.statuses), sorted(
            set(self.statuses)
        )
        assert self.slow_refusals == []


async def call(
    http: httpx.AsyncClient, target: Target, record: Record, method: str, path: str, **kwargs: Any
) -> httpx.Response:
    """One request, sent again after Retry-After while the database is away, and after a pause
    while the server cannot be reached."""
    sent = time.monotonic()
    held = False
    try:
        while True:
            started = time.monotonic()
            try:
                response = await http.request(method, target.url + path, **kwargs)
            except httpx.TransportError as error:
                record.transport_errors.append(f"{method} {path}: {error!r}")
                pause = RECONNECT_PAUSE
            else:
                record.note(response, time.monotonic() - started)
                if response.status_code != 503:
                    return response
                pause = int(response.headers["retry-after"])
            if not held:
                held = True
                record.held_by_the_fault += 1
            await asyncio.sleep(pause)
    finally:
        record.held_by_the_fault -= held
        record.spans.append((sent, time.monotonic()))


async def player(
    http: httpx.AsyncClient,
    target: Target,
    table: Table,
    record: Record,
    stop: asyncio.Event,
    seed: int,
) -> None:
    """Random legal commands on ``table`` until ``stop`` is set or the match ends."""
    rng = random.Random(seed)
    while not stop.is_set():
        path = f"{table.path}/view"
        view = (await call(http, target, record, "GET", path, headers=table.headers(0))).json()
        seat = view["turn"]
        if seat is None:
            return
        if seat != view["seat"]:
            response = await call(http, target, record, "GET", path, headers=table.headers(seat))
            view = response.json()
        command = choose(view, rng)
        key = str(uuid.uuid4())
        record.sent[key] = (table, seat, command)
        headers = {**table.headers(seat), "Idempotency-Key": key}
        response = await call(
            http, target, record, "POST", f"{table.path}/commands", json=command, headers=headers
        )
        assert response.status_code == 200, response.text
        record.acknowledged[key].add(response.json()["version"])
        await asyncio.sleep(0.05)


async def check_nothing_lost(
    http: httpx.AsyncClient, target: Target, tables: list[Table], record: Record
) -> None:
    """Every stream gap-free, and every acknowledged command still there exactly once: sent
    again with its key, it gets the same answer, and nothing is appended twice."""
    for table in tables:
        events = (await http.get(f"{target.url}{table.path}/events")).json()["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    for key, versions in record.acknowledged.items():
        assert len(versions) == 1, (key, versions)
        table, seat, command = record.sent[key]
        again = await http.post(
            f"{target.url}{table.path}/commands",
            json=command,
            headers={**table.headers(seat), "Idempotency-Key": key},
        )
        assert again.status_code == 200, again.text
        assert again.json()["version"] == next(iter(versions))


async def audit_every_match(database_url: str, tables: list[Table]) -> None:
    """``gin audit`` (the command's own entry point, in this process: an interpreter start per
    match would cost more than the audits) passes on each table's match."""
    failures = []
    for table in tables:
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            status = await asyncio.to_thread(
                main, ["audit", table.match_id, "--database-url", database_url]
            )
        if status != 0:
            failures.append((table.match_id, output.getvalue()))
    assert failures == []


async def view_to_move(http: httpx.AsyncClient, target: Target, table: Table) -> Json:
    """The view of the seat whose turn it is."""
    path = f"{target.url}{table.path}/view"
    view: Json = (await http.get(path, headers=table.headers(0))).json()
    if view["turn"] != view["seat"]:
        view = (await http.get(path, headers=table.headers(1))).json()
    return view


def random_command(view: Json, seed: int) -> Json:
    return choose(view, random.Random(seed))
