"""A create whose connection drops before the answer comes back, against a real server: the
client sends the request whole, hangs up, and sends it again with the same Idempotency-Key.
One match exists, and the tokens of the retried answer play it."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from adapters.postgres.event_store import open_pool
from bench.servers import gin_serve
from tests.app_login import as_app
from tests.tournament.conftest import operator_keys

REF = "dropped-1"


def send_and_hang_up(url: str, body: bytes, headers: dict[str, str]) -> None:
    parts = urlsplit(url)
    lines = ["POST /matches HTTP/1.1", f"Host: {parts.netloc}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
    with socket.create_connection((parts.hostname, parts.port)) as sock:
        sock.sendall("\r\n".join(lines).encode() + body)
        sock.shutdown(socket.SHUT_RDWR)  # gone before any answer: the answer is lost


@pytest.mark.slow
async def test_a_create_sent_again_after_its_connection_dropped_makes_one_match(
    database_url: str,
) -> None:
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        made = await operator_keys(pool).create_key("Dropped", ["matches:create", "matches:read"])
    headers = {
        "Authorization": f"Bearer {made.key}",
        "Content-Type": "application/json",
        "Idempotency-Key": "create-dropped-1",
    }
    body = json.dumps({"external_ref": REF, "options": {"game_target": 10, "match_target": 0}})

    with gin_serve(as_app(database_url)) as server:
        send_and_hang_up(server.url, body.encode(), headers)
        with httpx.Client(base_url=server.url, headers=headers) as client:
            retried = client.post("/matches", content=body)
            while retried.status_code == 409:  # the first is still being handled
                assert retried.json()["type"] == "/problems/idempotency-key-in-flight"
                time.sleep(float(retried.headers["Retry-After"]))
                retried = client.post("/matches", content=body)
            listed = client.get("/operator/matches", params={"external_ref_prefix": REF})
            match = retried.json()
            tokens = {seat["seat"]: seat["token"] for seat in match["seats"]}
            views = [
                client.get(
                    f"/matches/{match['match_id']}/view",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                )
                for seat in (0, 1)
            ]

    assert retried.status_code == 201, retried.text
    assert [m["match_id"] for m in listed.json()["matches"]] == [match["match_id"]]
    assert [view.status_code for view in views] == [200, 200]
