"""The floor benchmark's parts that its numbers rest on: a bare app served by granian as the
service is, and the low-overhead load client reading its answers one after another on one
keep-alive connection."""

from __future__ import annotations

import sys

from bench.raw_http import Connection
from bench.servers import served


def bare_app(port: int) -> list[str]:
    return [sys.executable, "-m", "bench.floor_apps", "d", "--port", str(port)]


async def test_the_load_client_reads_answers_in_turn_on_one_connection() -> None:
    with served(bare_app) as server:
        async with Connection(server.url) as connection:
            answers = [
                await connection.json("POST", "/op", {"type": "discard", "card": card})
                for card in ("7h", "10s")
            ]
            missing, _ = await connection.request("GET", "/nowhere")
            healthy = await connection.json("GET", "/health")

    assert answers == [(200, {"type": "discard", "id": 2}), (200, {"type": "discard", "id": 3})]
    assert missing == 404
    assert healthy == (200, {"status": "ok"})
