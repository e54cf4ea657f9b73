"""One match's feed among many: ``GET /feed?external_ref=…`` with 100,000 events of other
matches in the log, against two references: "GET /matches/{id}/events", the same match's
events read by its own endpoint (what any read of one match costs on this machine now), and
"scan of the whole log", the way the feed read a filtered page before it read by stream
(every page of the log read and filtered, as ``read_all`` gives it). The store's query alone
is timed too.

The other matches' events are written straight into the store's table (half before the
match, half after), so the log is long without playing thousands of matches; the match itself
is created over HTTP by its operator. Time is from the request sent to the answer read, in
process, so no network is in it (the app runs in this process over real PostgreSQL, embedded
unless --database-url names one). The goal for the filtered read is 5 ms.

    python3 dev.py bench feed_by_match [--repeats 50] [--other-events 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid

import psycopg
from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from bench.database import bench_database
from bench.tables import print_table
from service.store.match_streams import TWO_SEATS
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.settings import WebhookSettings
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

Client = AsyncTestClient[Litestar]
MATCHES = 1000  # the other matches the noise is spread over

NOISE = """
INSERT INTO events (stream_id, version, type, schema_version, data, hash)
SELECT %(prefix)s || (md5(%(salt)s || (n %% %(matches)s)::text))::uuid::text,
       n / %(matches)s + 1, 'noise', 1, convert_to('{}', 'UTF8'), '\\x00'
FROM generate_series(0, %(events)s - 1) AS n
"""


def other_events(url: str, events: int, salt: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            NOISE,
            {"prefix": TWO_SEATS.prefix, "salt": salt, "matches": MATCHES, "events": events},
        )
        conn.execute("ANALYZE events")


async def operator_key(url: str) -> str:
    async with open_pool(url, min_size=1, max_size=1) as pool:
        keys = OperatorKeys(PostgresOperatorKeyStore(pool), PostgresMatchRegistry(pool))
        made = await keys.create_key(f"bench {uuid.uuid4()}", ["matches:create", "feed:read"])
    return made.key


async def measure(url: str, repeats: int, others: int) -> dict[str, list[float]]:
    settings = Settings(
        database_url=url,
        pool_max_size=4,
        log_level="WARNING",
        webhooks=WebhookSettings(enabled=False),
        rate_limits=NO_LIMITS,
    )
    key = await operator_key(url)
    headers = {"Authorization": f"Bearer {key}"}
    other_events(url, others // 2, "before")
    samples: dict[str, list[float]] = {}
    async with AsyncTestClient(app=create_app(settings)) as client:
        made = await client.post("/matches", json={"external_ref": "table-7"}, headers=headers)
        assert made.status_code == 201, made.text
        other_events(url, others - others // 2, "after")
        params: dict[str, str | int] = {"external_ref": "table-7", "after": 0, "limit": 100}
        events = f"/matches/{made.json()['match_id']}/events"
        for _ in range(repeats):
            started = time.perf_counter()
            page = await client.get("/feed", params=params, headers=headers)
            samples.setdefault("GET /feed?external_ref=, 1 match", []).append(
                time.perf_counter() - started
            )
            assert page.status_code == 200, page.text
            assert page.json()["entries"], "the match's events are in the page"
            started = time.perf_counter()
            own = await client.get(events)
            samples.setdefault("reference: GET /matches/{id}/events", []).append(
                time.perf_counter() - started
            )
            assert own.status_code == 200, own.text
    async with open_pool(url, min_size=1, max_size=1) as pool:
        store = PostgresEventStore(pool, wake_match_streams=False)
        stream = TWO_SEATS.stream_id(made.json()["match_id"])
        for _ in range(repeats):
            started = time.perf_counter()
            assert await store.read_streams_in_log([stream], limit=100)
            samples.setdefault("its query alone (read_streams_in_log)", []).append(
                time.perf_counter() - started
            )
        for _ in range(max(1, repeats // 10)):
            started = time.perf_counter()
            cursor, found = 0, 0
            while log := await store.read_all(after_position=cursor, limit=1000):
                found += sum(1 for r in log if r.stream_id == stream)
                cursor = log[-1].position
            samples.setdefault("reference: scan of the whole log", []).append(
                time.perf_counter() - started
            )
            assert found > 0
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--other-events", type=int, default=100_000)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with bench_database(args.database_url, "gin_bench_feed_by_match") as url:
        samples = asyncio.run(measure(url, args.repeats, args.other_events))
    print(f"\n{args.other_events:,} events of other matches; milliseconds")
    print_table(
        ["read", "runs", "median ms", "slowest ms"],
        [
            [
                name,
                str(len(times)),
                f"{statistics.median(times) * 1000:.2f}",
                f"{max(times) * 1000:.2f}",
            ]
            for name, times in samples.items()
        ],
    )


if __name__ == "__main__":
    main()
