"""More than one process: two ``gin serve`` processes on one PostgreSQL serve a match
interchangeably, and a live stream on one sees, promptly, every command the other handled."""

from __future__ import annotations

import asyncio
import random

import httpx

from bench.servers import gin_serve
from tests.api.players import choose, create_table

PROMPTLY = 10.0  # seconds; a stream that only polled would wait out its 15 s keep-alive


async def test_two_server_processes_share_matches_and_streams(fresh_database_url: str) -> None:
    rng = random.Random(50)
    with gin_serve(fresh_database_url) as a, gin_serve(fresh_database_url) as b:
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=30) as on_a,
            httpx.AsyncClient(base_url=b.url, timeout=30) as on_b,
        ):
            table = await create_table(on_a, game_target=1, match_target=0)
            seen: list[int] = []
            heard = asyncio.Event()
            stream = asyncio.create_task(_listen(on_a, table.path, table.headers(0), seen, heard))
            clients = (on_b, on_a)
            for step in range(5_000):
                http = clients[step % 3 == 0]  # mostly the other process
                views = [
                    (await http.get(f"{table.path}/view", headers=table.headers(s))).json()
                    for s in (0, 1)
                ]
                if views[0]["phase"] == "match_over":
                    break
                view = views[views[0]["turn"]]
                heard.clear()
                response = await http.post(
                    f"{table.path}/commands",
                    json=choose(view, rng),
                    headers=table.headers(view["seat"]),
                )
                assert response.status_code == 200, response.text
                version = response.json()["version"]
                while not seen or seen[-1] < version:
                    await asyncio.wait_for(heard.wait(), PROMPTLY)
                    heard.clear()
            await asyncio.wait_for(stream, PROMPTLY)
            assert seen == list(range(1, seen[-1] + 1))


async def _listen(
    http: httpx.AsyncClient,
    path: str,
    headers: dict[str, str],
    seen: list[int],
    heard: asyncio.Event,
) -> None:
    async with http.stream("GET", f"{path}/stream", headers=headers) as response:
        async for line in response.aiter_lines():
            if line.startswith("id:"):
                seen.append(int(line.removeprefix("id:").strip()))
                heard.set()
