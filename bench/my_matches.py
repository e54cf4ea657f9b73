"""What ``GET /players/me/matches`` costs a player with 50 finished and 5 active matches,
against the same player's view of one active match (``GET /matches/{id}/view``) as the
reference, interleaved in one run.

    python3 dev.py bench my_matches [--database-url URL] [--requests N]

The app runs in this process, called through ASGI by an httpx client in the same event loop;
each time runs from the app being called to its last byte sent: the server's time (routing,
its middleware, its reads of PostgreSQL, encoding), without a network or a client. The list
reads the player of the credential and one indexed range of ``player_matches`` in one query;
the view loads the match (cached in the process) after the credential lookup and its seat
query. Target: the list's
p99 under 5 ms.
Without a URL it runs an embedded PostgreSQL in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import statistics
import time
from typing import Any

import httpx

from bench import tables
from bench.database import bench_database
from bench.players import QUICK, choose
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

FINISHED, ACTIVE = 50, 5
ONE_HAND = {"game_target": 1, "match_target": 0}

Client = httpx.AsyncClient


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


async def sign_up(client: Client, name: str) -> str:
    response = await client.post("/players", json={"display_name": name})
    assert response.status_code == 201, response.text
    credential: str = response.json()["credential"]
    return credential


async def new_match(client: Client, host: str, guest: str) -> str:
    created = await client.post(
        "/players/me/matches", json={"options": ONE_HAND}, headers=bearer(host)
    )
    code = created.json()["invite_code"]
    joined = await client.post(
        "/players/me/join", json={"invite_code": code}, headers=bearer(guest)
    )
    assert joined.status_code == 201, joined.text
    match_id: str = created.json()["match_id"]
    return match_id


async def play_out(
    client: Client, match_id: str, seats: dict[int, str], rng: random.Random
) -> None:
    view: dict[str, Any] = (
        await client.get(f"/matches/{match_id}/view", headers=bearer(seats[0]))
    ).json()
    while view["phase"] != "match_over":
        seat = view["turn"]
        if seat != view["seat"]:
            view = (
                await client.get(f"/matches/{match_id}/view", headers=bearer(seats[seat]))
            ).json()
        response = await client.post(
            f"/matches/{match_id}/commands",
            json=choose(view, rng, QUICK),
            headers=bearer(seats[seat]),
        )
        assert response.status_code == 200, response.text
        view = response.json()


async def prepare(client: Client) -> tuple[str, str]:
    """Ada's credential, with 50 finished and 5 active matches, and one active match's id."""
    rng = random.Random(12)
    ada, bo = await sign_up(client, "Ada"), await sign_up(client, "Bo")
    active = ""
    for n in range(FINISHED + ACTIVE):
        match_id = await new_match(client, ada, bo)
        if n < FINISHED:
            await play_out(client, match_id, {0: ada, 1: bo}, rng)
        else:
            active = match_id
    for _ in range(1000):  # the projector catches up within moments
        listed = (await client.get("/players/me/matches?limit=100", headers=bearer(ada))).json()
        statuses = [m["status"] for m in listed["matches"]]
        if statuses.count("finished") == FINISHED and len(statuses) == FINISHED + ACTIVE:
            return ada, active
        await asyncio.sleep(0.01)
    raise AssertionError(f"the list never showed every match: {statuses}")


class TimedApp:
    """The app, noting how long it took over the last request it served."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        began = time.perf_counter()
        await self.app(scope, receive, send)
        self.last = time.perf_counter() - began


async def measure(url: str, requests: int) -> dict[str, list[float]]:
    # No rate limits: the set-up plays 55 matches from one address as fast as it can.
    settings = Settings(
        database_url=url, log_level="WARNING", pool_max_size=4, rate_limits=NO_LIMITS
    )
    app = create_app(settings)
    served = TimedApp(app)
    transport = httpx.ASGITransport(app=served)
    async with (
        app.lifespan(),
        httpx.AsyncClient(transport=transport, base_url="http://bench") as client,
    ):

        async def timed(path: str, credential: str) -> float:
            response = await client.get(path, headers=bearer(credential))
            assert response.status_code == 200, response.text
            return served.last

        ada, active = await prepare(client)
        paths = {
            "GET /players/me/matches (55)": "/players/me/matches?limit=100",
            "reference: GET /matches/{id}/view": f"/matches/{active}/view",
        }
        timings: dict[str, list[float]] = {name: [] for name in paths}
        for path in paths.values():  # warm both up
            for _ in range(50):
                await timed(path, ada)
        for n in range(requests):
            order = list(paths.items()) if n % 2 == 0 else list(paths.items())[::-1]
            for name, path in order:
                timings[name].append(await timed(path, ada))
        return timings


def report(timings: dict[str, list[float]]) -> None:
    def ms(values: list[float], q: int) -> str:
        return f"{statistics.quantiles(values, n=100, method='inclusive')[q - 1] * 1000:.2f}"

    rows = [
        [name, str(len(values)), ms(values, 50), ms(values, 99)] for name, values in timings.items()
    ]
    tables.print_table(["request (server time)", "n", "p50 ms", "p99 ms"], rows)
    p99 = statistics.quantiles(next(iter(timings.values())), n=100, method="inclusive")[98] * 1000
    print(f"\ntarget: the list's p99 under 5 ms: {'met' if p99 < 5 else 'NOT met'} ({p99:.2f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("GIN_BENCH_DATABASE_URL"))
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the client's line per request
    with bench_database(args.database_url, "gin_bench_my_matches") as url:
        report(asyncio.run(measure(url, args.requests)))


if __name__ == "__main__":
    main()
