"""The live stream of a three- or four-player match: each seat's stream carries exactly its
``/events``, resumes after ``Last-Event-ID``, opens with a stream ticket, and hears each move as
it is made."""

from __future__ import annotations

import asyncio

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.conftest import Asgi
from tests.api.live import read_stream, sse_messages
from tests.api.players import bearer
from tests.api.test_formats import create, play_out

Client = AsyncTestClient[Litestar]


async def test_each_seats_stream_is_its_events_and_resumes_after_the_last_id(
    client: Client,
) -> None:
    created = await create(client, players=3)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    await play_out(client, created["match_id"], tokens, seed=7)
    for seat in [*tokens, None]:
        headers = bearer(tokens[seat]) if seat is not None else {}
        feed = (await client.get(f"{path}/events", headers=headers)).json()["events"]
        streamed = await client.get(f"{path}/stream", headers=headers)
        assert streamed.status_code == 200, streamed.text
        messages = sse_messages(streamed.text)
        assert [m["data"] for m in messages] == feed
        assert [m["event"] for m in messages] == [e["event"]["type"] for e in feed]
        assert messages[-1]["event"] == "format_match_won"
        middle = len(feed) // 2
        resumed = await client.get(
            f"{path}/stream", headers={**headers, "Last-Event-ID": str(middle)}
        )
        assert [m["data"] for m in sse_messages(resumed.text)] == feed[middle:]


async def test_a_ticket_opens_its_seats_stream_of_a_four_player_match(client: Client) -> None:
    created = await create(client, players=4)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    await play_out(client, created["match_id"], tokens, seed=8)
    issued = await client.post(f"{path}/stream-tickets", headers=bearer(tokens[2]))
    assert issued.status_code == 201, issued.text
    ticket = issued.json()["ticket"]
    streamed = await client.get(f"{path}/stream", params={"ticket": ticket})
    feed = (await client.get(f"{path}/events", headers=bearer(tokens[2]))).json()["events"]
    assert [m["data"] for m in sse_messages(streamed.text)] == feed
    again = await client.get(f"{path}/stream", params={"ticket": ticket})
    assert again.status_code == 401


async def test_a_live_stream_hears_every_move_as_it_is_made(asgi: Asgi) -> None:
    created = await create(asgi.client, players=4, bots=["random", None, "random", None])  # type: ignore[arg-type]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    chunks: list[bytes] = []
    stream = asyncio.create_task(
        read_stream(asgi.app, f"{path}/stream", bearer(tokens[1]), chunks.append)
    )
    await play_out(asgi.client, created["match_id"], tokens, seed=9)  # type: ignore[arg-type]
    assert await asyncio.wait_for(stream, 30) == 200
    feed = (await asgi.client.get(f"{path}/events", headers=bearer(tokens[1]))).json()["events"]
    messages = sse_messages(b"".join(chunks).decode())
    assert [m["id"] for m in messages] == list(range(1, len(feed) + 1))
    # Read live, a table's events come before its hand ends: what seat 1 saw then hid more.
    assert [m["data"]["version"] for m in messages] == [e["version"] for e in feed]
    assert len(chunks) > 1
