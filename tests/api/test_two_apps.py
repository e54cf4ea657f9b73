"""Two instances of the app on one database (as two server processes would be) serve one match
interchangeably: commands may go to either, and a live stream on one sees every command the
other handled. Nothing is shared between them but PostgreSQL."""

from __future__ import annotations

import asyncio
import random

from tests.api.conftest import served
from tests.api.live import read_stream, sse_messages
from tests.api.players import Table, choose, create_table

PROMPTLY = 10.0  # seconds; a stream that only polled would wait out its 15 s keep-alive


async def test_two_apps_serve_one_match_and_streams_see_each_others_commands(
    database_url: str,
) -> None:
    rng = random.Random(31)
    async with served(database_url) as first, served(database_url) as second:
        apps = (first, second)
        table: Table = await create_table(first.client, game_target=1, match_target=0)
        chunks: list[bytes] = []
        stream = asyncio.create_task(
            read_stream(first.app, f"{table.path}/stream", table.headers(0), chunks.append)
        )
        version = 0
        for step in range(10_000):
            # Every other command goes to the other app, which also renders the view.
            app = apps[step % 2]
            views = [
                (await app.client.get(f"{table.path}/view", headers=table.headers(seat))).json()
                for seat in (0, 1)
            ]
            assert views[0]["version"] == views[1]["version"] >= version
            if views[0]["phase"] == "match_over":
                break
            view = views[views[0]["turn"]]
            response = await app.client.post(
                f"{table.path}/commands",
                json=choose(view, rng),
                headers=table.headers(view["seat"]),
            )
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            # The stream on the first app hears of it, wherever it was handled.
            await asyncio.wait_for(_stream_reaches(chunks, version), PROMPTLY)
        assert await asyncio.wait_for(stream, PROMPTLY) == 200


async def _stream_reaches(chunks: list[bytes], version: int) -> None:
    while True:
        messages = sse_messages(b"".join(chunks).decode())
        if messages and messages[-1]["id"] >= version:
            return
        await asyncio.sleep(0.01)
