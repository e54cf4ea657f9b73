"""Tournament costs in server time, each beside a named reference measured in the same run,
interleaved (one of each per repeat), so a busy machine slows both alike:

- a round of 64 matches in one ``POST /rounds``, against the reference "64 x POST /matches":
  the same 64 matches created one request at a time, as before rounds existed;
- an operator's feed filtered to two event types, 1,000 events to a page, against the
  reference "unfiltered feed page": a ``feed:all`` page of 1,000 events of the same log.

The app runs in this process over real PostgreSQL (embedded unless --database-url names one),
with webhooks off; time is from the request sent to the answer read, in process, so no network
is in it. The table shows the median and the slowest of the repeats.

    python -m bench.tournament [--repeats 15] [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from bench.database import bench_database
from bench.players import QUICK, choose
from bench.tables import print_table
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.settings import WebhookSettings
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

Client = AsyncTestClient[Litestar]
ROUND = 64
FEED_EVENTS = 1000
OPTIONS = {"game_target": 10_000, "match_target": 0}  # matches that go on: events to read


async def timed(call: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await call()
    return time.perf_counter() - started


async def keys_for(url: str) -> tuple[str, str]:
    """An operator key that creates and reads its matches, and one that reads every match."""
    async with open_pool(url, min_size=1, max_size=1) as pool:
        keys = OperatorKeys(PostgresOperatorKeyStore(pool), PostgresMatchRegistry(pool))
        name = f"bench {uuid.uuid4()}"
        mine = await keys.create_key(name, ["matches:create", "matches:read", "feed:read"])
        every = await keys.create_key(f"{name} all", ["feed:read", "feed:all"])
    return mine.key, every.key


async def fill_the_log(client: Client, key: str, events: int) -> None:
    """Matches of this operator and anonymous ones, played until the log holds ``events``."""
    rng = random.Random(1)
    tables = []
    for n in range(8):
        headers = {"Authorization": f"Bearer {key}"} if n % 2 else {}
        made = (await client.post("/matches", json={"options": OPTIONS}, headers=headers)).json()
        tables.append({s["seat"]: s["token"] for s in made["seats"]} | {"id": made["match_id"]})
    played = 0
    while played < events:
        for table in tables:
            path = f"/matches/{table['id']}"
            view = (await client.get(f"{path}/view", headers=_bearer(table[0]))).json()
            seat = view["turn"]
            if seat is None:
                continue
            view = (await client.get(f"{path}/view", headers=_bearer(table[seat]))).json()
            await client.post(
                f"{path}/commands", json=choose(view, rng, QUICK), headers=_bearer(table[seat])
            )
            played += 1


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def measure(url: str, repeats: int) -> dict[str, list[float]]:
    settings = Settings(
        database_url=url,
        pool_max_size=10,
        webhooks=WebhookSettings(enabled=False),
        rate_limits=NO_LIMITS,  # one operator creates as fast as the service answers
    )
    mine, every = await keys_for(url)
    samples: dict[str, list[float]] = {}
    async with AsyncTestClient(app=create_app(settings)) as client:
        await fill_the_log(client, mine, FEED_EVENTS)
        for repeat in range(repeats):
            body = {
                "options": OPTIONS,
                "matches": [{"external_ref": f"r{repeat}-{n}"} for n in range(ROUND)],
            }
            single = [{"options": OPTIONS, "external_ref": f"s{repeat}-{n}"} for n in range(ROUND)]
            own = {**_feed(), "type": ["drew", "discarded"]}
            runs: dict[str, Callable[[], Awaitable[Any]]] = {
                "POST /rounds, 64 matches": partial(_post, client, "/rounds", body, mine),
                "reference: 64 x POST /matches": partial(_each, client, single, mine),
                "GET /feed, own matches, 2 types, 1,000": partial(_get, client, own, mine),
                "reference: GET /feed, feed:all, 1,000": partial(_get, client, _feed(), every),
            }
            for name, run in runs.items():
                samples.setdefault(name, []).append(await timed(run))
    return samples


def _feed() -> dict[str, Any]:
    return {"after": 0, "limit": FEED_EVENTS}


async def _post(client: Client, path: str, body: Any, key: str) -> None:
    response = await client.post(path, json=body, headers=_bearer(key))
    assert response.status_code == 201, response.text


async def _each(client: Client, bodies: list[dict[str, Any]], key: str) -> None:
    for body in bodies:
        await _post(client, "/matches", body, key)


async def _get(client: Client, params: dict[str, Any], key: str) -> None:
    response = await client.get("/feed", params=params, headers=_bearer(key))
    assert response.status_code == 200, response.text
    assert len(response.json()["entries"]) > 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with bench_database(args.database_url, "gin_bench_tournament") as url:
        samples = asyncio.run(measure(url, args.repeats))
    print(f"\n{args.repeats} repeats, interleaved; milliseconds")
    print_table(
        ["request", "median ms", "slowest ms"],
        [
            [name, f"{statistics.median(times) * 1000:.1f}", f"{max(times) * 1000:.1f}"]
            for name, times in samples.items()
        ],
    )


if __name__ == "__main__":
    main()
