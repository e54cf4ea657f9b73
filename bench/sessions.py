"""What a session costs: a request sent with a session's access token against the same request
sent with the player's credential, interleaved in one run, the ratio printed.

    python3 dev.py bench sessions [--database-url URL] [--requests N]

Two requests, each sent both ways: ``GET /players/me`` (the sign-in and little else) and ``GET
/matches/{id}/view`` of the player's seat in an active match (the sign-in, the seat's lookup and
the view). The app runs in this process, called through ASGI by an httpx client in the same
event loop; each time runs from the app being called to its last byte sent (no network, no
client). A credential is found with its player in one query by its hash; an access token with
its player and session in one query by its hash (a join), so the target is a ratio of at most
1.1 at the median. Without a URL it runs an embedded PostgreSQL in a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics

import httpx

from bench import tables
from bench.database import bench_database
from bench.my_matches import TimedApp, bearer, new_match, sign_up
from web.app import create_app
from web.rate_limits import NO_LIMITS
from web.settings import Settings

TARGET = 1.1
WARM_UP = 100


async def measure(url: str, requests: int) -> dict[str, list[float]]:
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
        ada, bo = await sign_up(client, "Ada"), await sign_up(client, "Bo")
        match_id = await new_match(client, ada, bo)
        session = await client.post("/sessions/credential", headers=bearer(ada))
        assert session.status_code == 201, session.text
        access: str = session.json()["access_token"]

        async def timed(path: str, secret: str) -> float:
            response = await client.get(path, headers=bearer(secret))
            assert response.status_code == 200, response.text
            return served.last

        cases = {
            ("GET /players/me", "credential"): ("/players/me", ada),
            ("GET /players/me", "session"): ("/players/me", access),
            ("GET /matches/{id}/view", "credential"): (f"/matches/{match_id}/view", ada),
            ("GET /matches/{id}/view", "session"): (f"/matches/{match_id}/view", access),
        }
        for path, secret in cases.values():
            for _ in range(WARM_UP):
                await timed(path, secret)
        timings: dict[str, list[float]] = {f"{r} with {w}": [] for r, w in cases}
        for n in range(requests):
            order = list(cases.items()) if n % 2 == 0 else list(cases.items())[::-1]
            for (request, way), (path, secret) in order:
                timings[f"{request} with {way}"].append(await timed(path, secret))
        return timings


def report(timings: dict[str, list[float]]) -> bool:
    def ms(values: list[float], q: int) -> float:
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000

    rows = [
        [name, str(len(values)), f"{ms(values, 50):.3f}", f"{ms(values, 99):.3f}"]
        for name, values in timings.items()
    ]
    tables.print_table(["request (server time)", "n", "p50 ms", "p99 ms"], rows)
    met = True
    for request in ("GET /players/me", "GET /matches/{id}/view"):
        session = statistics.median(timings[f"{request} with session"])
        credential = statistics.median(timings[f"{request} with credential"])
        ratio = session / credential
        met = met and ratio <= TARGET
        print(f"{request}: session / credential at the median = {ratio:.3f}")
    print(f"\ntarget: at most {TARGET}x: {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("GIN_BENCH_DATABASE_URL"))
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    with bench_database(args.database_url, "gin_bench_sessions") as url:
        report(asyncio.run(measure(url, args.requests)))


if __name__ == "__main__":
    main()
