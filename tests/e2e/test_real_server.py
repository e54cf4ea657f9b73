"""End to end: the real ``gin serve`` process on a free port, a match played through real HTTP,
its live stream read over a real connection, and nothing acknowledged lost to a crash."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import msgspec

from bench.servers import gin_serve
from tests.api.players import Table, choose, create_table, play_match


async def read_sse(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> list[int]:
    """The ids of a stream's messages, read until the stream ends."""
    ids: list[int] = []
    async with http.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        async for line in response.aiter_lines():
            if line.startswith("id:"):
                ids.append(int(line.removeprefix("id:").strip()))
            elif line.startswith("data:"):
                envelope = msgspec.json.decode(line.removeprefix("data:").strip())
                assert envelope["version"] == ids[-1]
    return ids


async def test_a_match_is_played_over_real_http_with_a_live_stream(
    fresh_database_url: str,
) -> None:
    with gin_serve(fresh_database_url) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            docs = await http.get("/docs")
            assert docs.status_code == 200
            table = await create_table(http, game_target=1, match_target=0)
            stream = asyncio.create_task(read_sse(http, f"{table.path}/stream", table.headers(1)))
            final = await play_match(http, table, random.Random(40))
            assert final["phase"] == "match_over"
            ids = await asyncio.wait_for(stream, 20)
            assert ids == list(range(1, final["version"] + 1))
            summary = (await http.get(table.path)).json()
            assert summary["status"] == "finished"


async def test_nothing_acknowledged_is_lost_when_the_server_is_killed(
    fresh_database_url: str,
) -> None:
    rng = random.Random(41)
    with gin_serve(fresh_database_url) as first:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            table: Table = await create_table(http, game_target=500, match_target=0)
            acknowledged = 0
            for _ in range(25):
                view = await _turn_view(http, table)
                if not view["legal_actions"]:
                    break  # the match is over already
                response = await http.post(
                    f"{table.path}/commands",
                    json=choose(view, rng),
                    headers=table.headers(view["seat"]),
                )
                assert response.status_code == 200
                acknowledged = response.json()["version"]
        first.kill()
    with gin_serve(fresh_database_url) as second:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            view = await _turn_view(http, table)
            assert view["version"] == acknowledged
            events = (await http.get(f"{table.path}/events")).json()["events"]
            assert [e["version"] for e in events] == list(range(1, acknowledged + 1))


async def _turn_view(http: httpx.AsyncClient, table: Table) -> dict[str, Any]:
    view: dict[str, Any] = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
    if view["turn"] != 0:
        view = (await http.get(f"{table.path}/view", headers=table.headers(1))).json()
    return view
