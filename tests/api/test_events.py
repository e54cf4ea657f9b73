"""The event feed and the live stream: the same redacted events, in version order, resumable."""

from __future__ import annotations

import asyncio
import random

from tests.api.conftest import Asgi
from tests.api.live import read_stream, sse_messages
from tests.api.players import create_table, play_match
from tests.api.problems import assert_problem


async def test_events_after_a_version_come_in_order(asgi: Asgi) -> None:
    table = await create_table(asgi.client)
    await play_match(asgi.client, table, random.Random(1))
    feed = (await asgi.client.get(f"{table.path}/events?after=5")).json()
    versions = [envelope["version"] for envelope in feed["events"]]
    assert versions[0] == 6
    assert versions == list(range(6, versions[-1] + 1))
    assert feed["events"][-1]["event"]["type"] == "match_won"
    assert (await asgi.client.get(f"{table.path}/events?after={versions[-1]}")).json()[
        "events"
    ] == []


async def test_a_seat_sees_its_own_deal_and_a_spectator_sees_neither_hand(asgi: Asgi) -> None:
    table = await create_table(asgi.client)
    public = (await asgi.client.get(f"{table.path}/events")).json()["events"]
    chooser = next(e["event"]["winner"] for e in public if e["event"]["type"] == "cards_cut")
    choice = {"type": "choose_dealer", "dealer": 0}
    await asgi.client.post(f"{table.path}/commands", json=choice, headers=table.headers(chooser))
    for seat, headers in ((0, table.headers(0)), (1, table.headers(1)), (None, {})):
        events = (await asgi.client.get(f"{table.path}/events", headers=headers)).json()["events"]
        dealt = next(e["event"] for e in events if e["event"]["type"] == "dealt")
        assert dealt["stock"] == []
        for owner in (0, 1):
            assert (len(dealt["hands"][owner]) == 10) == (owner == seat)


async def test_the_stream_sends_each_event_once_as_it_happens_and_ends_with_the_match(
    asgi: Asgi,
) -> None:
    table = await create_table(asgi.client, game_target=1, match_target=0)
    chunks: list[bytes] = []
    stream = asyncio.create_task(
        read_stream(asgi.app, f"{table.path}/stream", table.headers(0), chunks.append)
    )
    # Before any command: the events of the match's creation arrive on their own.
    await asyncio.wait_for(_messages_arrive(chunks, 2), 10)
    assert [m["event"] for m in sse_messages(b"".join(chunks).decode())][:2] == [
        "match_created",
        "cards_cut",
    ]
    final = await play_match(asgi.client, table, random.Random(8))
    assert await asyncio.wait_for(stream, 10) == 200
    messages = sse_messages(b"".join(chunks).decode())
    assert [m["id"] for m in messages] == list(range(1, final["version"] + 1))
    assert all(m["id"] == m["data"]["version"] for m in messages)
    assert all(m["event"] == m["data"]["event"]["type"] for m in messages)
    # The feed read now shows the ended hand's cards, which the stream could not show live.
    feed = (await asgi.client.get(f"{table.path}/events", headers=table.headers(0))).json()
    assert [m["data"]["event"]["type"] for m in messages] == [
        envelope["event"]["type"] for envelope in feed["events"]
    ]


async def _messages_arrive(chunks: list[bytes], count: int) -> None:
    while len(sse_messages(b"".join(chunks).decode())) < count:
        await asyncio.sleep(0.01)


async def test_the_stream_resumes_after_the_last_event_id(asgi: Asgi) -> None:
    table = await create_table(asgi.client, game_target=1, match_target=0)
    final = await play_match(asgi.client, table, random.Random(9))
    chunks: list[bytes] = []
    headers = {**table.headers(1), "Last-Event-ID": "7"}
    status = await asyncio.wait_for(
        read_stream(asgi.app, f"{table.path}/stream", headers, chunks.append), 10
    )
    assert status == 200
    ids = [m["id"] for m in sse_messages(b"".join(chunks).decode())]
    assert ids == list(range(8, final["version"] + 1))


async def test_a_bad_last_event_id_is_refused(asgi: Asgi) -> None:
    table = await create_table(asgi.client)
    headers = {**table.headers(0), "Last-Event-ID": "seven"}
    response = await asgi.client.get(f"{table.path}/stream", headers=headers)
    assert_problem(response, 400, "invalid-parameter")
