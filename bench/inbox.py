"""How soon an inbox hears of its player's turn, with 1,000 inboxes open on one server
process; the match's own live stream (``/matches/{id}/stream``) hearing of the same commit is
the reference, in the same run.

    python3 dev.py bench inbox [--database-url URL] [--players 1000] [--samples 300]

One ``gin serve`` process; ``--players`` players sign up and pair into matches by invite, and
every player holds their inbox open (Server-Sent Events). Then commands are sent one at a time
in a few of the matches; after each command that hands the turn to the other player, the time
runs from the command's answer (the commit is acknowledged) to that player's inbox receiving
``your_turn``, and to the same player's match stream receiving the command's last event. The
notice goes the longer way: the projector reads the global log after the wake-up, commits the
notice, and wakes the inbox in its turn. Target: the inbox's p99 within 50 ms.
Without a URL it runs an embedded PostgreSQL in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import httpx

from bench import tables
from bench.database import bench_database
from bench.players import choose
from bench.servers import gin_serve

Json = dict[str, Any]
SAMPLE_MATCHES = 10
ENDLESS = {"game_target": 10_000, "match_target": 0}
OnMessage = Callable[[str, str], None]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


async def listen(
    client: httpx.AsyncClient, path: str, credential: str, on_message: OnMessage
) -> None:
    """Read an SSE stream for ever, calling ``on_message(event, id)`` as each message ends."""
    async with client.stream("GET", path, headers=bearer(credential)) as response:
        event = ident = ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line.removeprefix("event:").strip()
            elif line.startswith("id:"):
                ident = line.removeprefix("id:").strip()
            elif not line and ident:
                on_message(event, ident)
                event = ident = ""


class Heard:
    """Every message each player's streams received, with when; and a way to wait for one."""

    def __init__(self) -> None:
        self.messages: dict[tuple[str, str], list[tuple[str, int, float]]] = {}
        self._news = asyncio.Event()

    def on(self, player: str, kind: str) -> OnMessage:
        received = self.messages.setdefault((player, kind), [])

        def hear(event: str, ident: str) -> None:
            received.append((event, int(ident), time.perf_counter()))
            self._news.set()

        return hear

    def last_id(self, player: str, kind: str) -> int:
        received = self.messages.get((player, kind)) or [("", 0, 0.0)]
        return received[-1][1]

    async def arrival(self, player: str, kind: str, event: str | None, after_id: int) -> float:
        """When the first message after ``after_id`` (of type ``event``, if given) arrived."""
        while True:
            for name, ident, at in self.messages.get((player, kind), []):
                if ident > after_id and (event is None or name == event):
                    return at
            self._news.clear()
            await self._news.wait()


async def settled(heard: Heard, players: int) -> None:
    """Wait until every inbox has its first notice and nothing more has come for a second:
    the projector has caught up with the matches just made, and samples start from quiet."""
    count = -1
    while True:
        inboxes = [heard.messages.get((str(n), "inbox"), []) for n in range(players)]
        now = sum(len(received) for received in inboxes)
        if now == count and all(inboxes):
            return
        count = now
        await asyncio.sleep(1)


async def sign_up(client: httpx.AsyncClient, n: int) -> str:
    response = await client.post("/players", json={"display_name": f"Player {n}"})
    assert response.status_code == 201, response.text
    credential: str = response.json()["credential"]
    return credential


async def pair(client: httpx.AsyncClient, host: str, guest: str) -> str:
    created = await client.post(
        "/players/me/matches", json={"options": ENDLESS}, headers=bearer(host)
    )
    assert created.status_code == 201, created.text
    joined = await client.post(
        "/players/me/join",
        json={"invite_code": created.json()["invite_code"]},
        headers=bearer(guest),
    )
    assert joined.status_code == 201, joined.text
    match_id: str = created.json()["match_id"]
    return match_id


async def measure(base_url: str, players: int, samples: int) -> dict[str, list[float]]:
    rng = random.Random(1)
    limits = httpx.Limits(max_connections=players + 4 * SAMPLE_MATCHES + 20)
    timeout = httpx.Timeout(30, read=None)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as client:
        credentials = [await sign_up(client, n) for n in range(players)]
        matches = [
            (await pair(client, credentials[n], credentials[n + 1]), n)
            for n in range(0, players - 1, 2)
        ]
        heard = Heard()
        readers = [
            asyncio.create_task(
                listen(client, "/players/me/inbox", credential, heard.on(str(n), "inbox"))
            )
            for n, credential in enumerate(credentials)
        ]
        sampled = matches[:SAMPLE_MATCHES]
        for match_id, first in sampled:
            for n in (first, first + 1):
                path = f"/matches/{match_id}/stream"
                on = heard.on(str(n), "stream")
                readers.append(asyncio.create_task(listen(client, path, credentials[n], on)))
        await settled(heard, players)
        timings: dict[str, list[float]] = {"inbox: your_turn": [], "reference: match stream": []}
        taken = 0
        while taken < samples:
            match_id, first = rng.choice(sampled)
            seats = {0: first, 1: first + 1}
            view = (
                await client.get(f"/matches/{match_id}/view", headers=bearer(credentials[first]))
            ).json()
            mover = view["turn"]
            if mover != view["seat"]:
                path = f"/matches/{match_id}/view"
                view = (await client.get(path, headers=bearer(credentials[seats[mover]]))).json()
            other = str(seats[1 - mover])
            seen = heard.last_id(other, "inbox")
            response = await client.post(
                f"/matches/{match_id}/commands",
                json=choose(view, rng),
                headers=bearer(credentials[seats[mover]]),
            )
            answered = time.perf_counter()
            assert response.status_code == 200, response.text
            after = response.json()
            if after["turn"] == mover or after["phase"] == "match_over":
                continue
            waits = [
                heard.arrival(other, "inbox", "your_turn", seen),
                heard.arrival(other, "stream", None, after["version"] - 1),
            ]
            try:
                arrived = await asyncio.wait_for(asyncio.gather(*waits), 10)
            except TimeoutError:
                inbox = heard.messages.get((other, "inbox"), [])[-3:]
                raise AssertionError(f"nothing heard after {taken} samples: {inbox}") from None
            timings["inbox: your_turn"].append(max(0.0, arrived[0] - answered))
            timings["reference: match stream"].append(max(0.0, arrived[1] - answered))
            taken += 1
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
                await reader
        return timings


def report(timings: dict[str, list[float]], players: int) -> None:
    def ms(values: list[float], q: int) -> str:
        return f"{statistics.quantiles(values, n=100, method='inclusive')[q - 1] * 1000:.1f}"

    rows = [
        [name, str(len(values)), ms(values, 50), ms(values, 99), f"{max(values) * 1000:.1f}"]
        for name, values in timings.items()
    ]
    print(f"{players} inboxes open on one process; from the command's answer to arrival")
    tables.print_table(["heard by", "n", "p50 ms", "p99 ms", "max ms"], rows)
    p99 = statistics.quantiles(timings["inbox: your_turn"], n=100, method="inclusive")[98] * 1000
    print(f"\ntarget: the inbox's p99 within 50 ms: {'met' if p99 <= 50 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("GIN_BENCH_DATABASE_URL"))
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with (
        bench_database(args.database_url, "gin_bench_inbox") as url,
        gin_serve(url, "--workers", "1") as server,
    ):
        report(asyncio.run(measure(server.url, args.players, args.samples)), args.players)


if __name__ == "__main__":
    main()
