"""One match's feed among many: ``GET /feed?external_ref=…`` with 100,000 events of other
matches in the log, against two references: "GET /matches/{id}/events", the same match's
events read by its own endpoint (what any read of one match costs on this machine now), and
"scan of the whole log", the way the feed read a filtered page before it read by stream
(every page of the log read and filtered, as ``read_all`` gives it). The store's query alone
is timed too.

The other matches' events are written straight into the store's table (half before the
match, half after), so the log is long without playing thousands of matches; the match itself
is created over HTTP by its operator. Two times are taken of each request: the client's, from
the request sent to the answer read, in process, so no network is in it (the app runs in this
process over real PostgreSQL, embedded unless --database-url names one), which includes the
test client's hop to the app's thread; and the server's, the ``duration_ms`` the request log
records (web/request_log.py). The goal for the filtered read is 5 ms of server time. The
machine's load average is printed first: on a busy machine every figure grows.

    python3 dev.py bench feed_by_match [--repeats 50] [--other-events 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
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
from web.request_log import JsonFormatter, request_log
from web.settings import Settings

Client = AsyncTestClient[Litestar]
Samples = dict[str, list[float]]
SERVER = " (server)"  # the suffix of a read's server times, from the request log
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


class RequestDurations(logging.Handler):
    """The ``duration_ms`` of each request line the app logs, in seconds, oldest first."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.seconds: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.seconds.append(json.loads(self.format(record))["duration_ms"] / 1000)


def server_time(durations: RequestDurations) -> float:
    (seconds,) = durations.seconds  # one request, one line
    durations.seconds.clear()
    return seconds


def log_requests_to(durations: RequestDurations) -> None:
    """Request lines to ``durations`` only, whatever level the app's other logs are at."""
    request_log.setLevel(logging.INFO)
    request_log.propagate = False
    request_log.handlers[:] = [durations]


async def measure(url: str, repeats: int, others: int) -> Samples:
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
    samples: Samples = {}
    durations = RequestDurations()
    feed, own_events = "GET /feed?external_ref=, 1 match", "reference: GET /matches/{id}/events"
    async with AsyncTestClient(app=create_app(settings)) as client:
        log_requests_to(durations)  # after the app set its logging up
        made = await client.post("/matches", json={"external_ref": "table-7"}, headers=headers)
        assert made.status_code == 201, made.text
        server_time(durations)
        other_events(url, others - others // 2, "after")
        params: dict[str, str | int] = {"external_ref": "table-7", "after": 0, "limit": 100}
        events = f"/matches/{made.json()['match_id']}/events"
        for _ in range(repeats):
            started = time.perf_counter()
            page = await client.get("/feed", params=params, headers=headers)
            samples.setdefault(feed, []).append(time.perf_counter() - started)
            samples.setdefault(feed + SERVER, []).append(server_time(durations))
            assert page.status_code == 200, page.text
            assert page.json()["entries"], "the match's events are in the page"
            started = time.perf_counter()
            own = await client.get(events)
            samples.setdefault(own_events, []).append(time.perf_counter() - started)
            samples.setdefault(own_events + SERVER, []).append(server_time(durations))
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
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with bench_database(args.database_url, "gin_bench_feed_by_match") as url:
        samples = asyncio.run(measure(url, args.repeats, args.other_events))
    print(f"\n{args.other_events:,} events of other matches; milliseconds")
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print_table(
        ["read", "runs", "client median", "client p95", "server median", "server p95"],
        [
            [name, str(len(times)), *_figures(times), *_figures(samples.get(name + SERVER))]
            for name, times in samples.items()
            if not name.endswith(SERVER)
        ],
    )


def _figures(times: list[float] | None) -> list[str]:
    """Median and 95th percentile in milliseconds; dashes for a read the server did not log."""
    if times is None:
        return ["-", "-"]
    p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) > 1 else times[0]
    return [f"{statistics.median(times) * 1000:.2f}", f"{p95 * 1000:.2f}"]


if __name__ == "__main__":
    main()
