"""Players over HTTP: sign up, make and join matches, read the inbox until enough arrived."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx

from tests.api.live import read_stream, sse_messages
from tests.api.players import ONE_GAME, bearer

Json = dict[str, Any]


async def sign_up(client: httpx.AsyncClient, name: str) -> Json:
    response = await client.post("/players", json={"display_name": name})
    assert response.status_code == 201, response.text
    body: Json = response.json()
    return body


async def pair(
    client: httpx.AsyncClient, host: Json, guest: Json, options: Json | None = None
) -> str:
    """A match ``host`` made with an invite that ``guest`` accepted: its id."""
    created = await client.post(
        "/players/me/matches",
        json={"options": options or ONE_GAME},
        headers=bearer(host["credential"]),
    )
    assert created.status_code == 201, created.text
    joined = await client.post(
        "/players/me/join",
        json={"invite_code": created.json()["invite_code"]},
        headers=bearer(guest["credential"]),
    )
    assert joined.status_code == 201, joined.text
    match_id: str = created.json()["match_id"]
    return match_id


async def inbox(
    app: Any, credential: str, count: int, *, last_event_id: int | None = None
) -> list[Json]:
    """The first ``count`` messages of the player's inbox (waiting for them to come)."""
    text = bytearray()
    enough = asyncio.Event()
    headers = bearer(credential)
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)

    def on_chunk(chunk: bytes) -> None:
        text.extend(chunk)
        if len(sse_messages(text.decode())) >= count:
            enough.set()

    reading = asyncio.create_task(read_stream(app, "/players/me/inbox", headers, on_chunk))
    try:
        await asyncio.wait_for(enough.wait(), 30)
    finally:
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
    return sse_messages(text.decode())[:count]


async def my_matches(client: httpx.AsyncClient, player: Json, **params: Any) -> Json:
    response = await client.get(
        "/players/me/matches", params=params, headers=bearer(player["credential"])
    )
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


async def until(check: Any, *args: Any) -> Json:
    """Ask again until ``check(*args)`` returns something true (the projector is a moment
    behind the commit); bounded, so a projector that never catches up fails the test."""
    for _ in range(500):
        result = await check(*args)
        if result:
            found: Json = result
            return found
        await asyncio.sleep(0.01)
    raise AssertionError("the projection never caught up")
