"""The event feed and the live stream, at every table size: the same redacted events, in
version order, resumable after ``Last-Event-ID``, each seat's stream exactly its ``/events``."""

from __future__ import annotations

import asyncio
import random

from tests.api.any_size import EVERY_SIZE, create_at, play_one, play_out
from tests.api.conftest import Asgi
from tests.api.live import read_stream, sse_messages
from tests.api.players import Json, Table
from tests.api.problems import assert_problem

ONE_HAND = {"game_target": 1, "match_target": 0}
# The event that ends a match, and those its creation writes, before any command.
WON = {2: "match_won", 3: "format_match_won", 4: "format_match_won"}
CREATED = {
    2: ["match_created", "cards_cut"],
    3: ["format_match_created", "seats_cut"],
    4: ["format_match_created", "seats_cut"],
}


def headers_of(table: Table, viewer: int | None) -> dict[str, str]:
    return table.headers(viewer) if viewer is not None else {}


async def events(asgi: Asgi, table: Table, viewer: int | None, after: int = 0) -> list[Json]:
    response = await asgi.client.get(
        f"{table.path}/events?after={after}", headers=headers_of(table, viewer)
    )
    assert response.status_code == 200, response.text
    found: list[Json] = response.json()["events"]
    return found


def deals(envelopes: list[Json]) -> list[tuple[list[int], Json]]:
    """Each deal in the events: the match seats at its table, in the order of its hands."""
    found = []
    for envelope in envelopes:
        event = envelope["event"]
        if event["type"] == "dealt":
            found.append(([0, 1], event))
        elif event["type"] == "table_event" and event["event"]["type"] == "dealt":
            found.append((event["seats"], event["event"]))
    return found


@EVERY_SIZE
async def test_events_after_a_version_come_in_order(asgi: Asgi, seats: int) -> None:
    table = await create_at(asgi.client, seats)
    await play_out(asgi.client, table, random.Random(1))
    feed = await events(asgi, table, None, after=5)
    versions = [envelope["version"] for envelope in feed]
    assert versions[0] == 6
    assert versions == list(range(6, versions[-1] + 1))
    assert feed[-1]["event"]["type"] == WON[seats]
    assert await events(asgi, table, None, after=versions[-1]) == []


@EVERY_SIZE
async def test_a_seat_sees_its_own_deal_and_a_spectator_sees_none(asgi: Asgi, seats: int) -> None:
    table = await create_at(asgi.client, seats)
    rng = random.Random(2)
    while not deals(await events(asgi, table, None)):  # two seats: the dealer is chosen first
        await play_one(asgi.client, table, rng)
    for viewer in [*table.tokens, None]:
        dealt = deals(await events(asgi, table, viewer))
        assert len(dealt) == (2 if seats == 4 else 1)  # a hand at each table
        for at_table, deal in dealt:
            assert deal["stock"] == []
            for index, owner in enumerate(at_table):
                assert (len(deal["hands"][index]) == 10) == (owner == viewer), (viewer, deal)
        if viewer is not None and any(viewer in at_table for at_table, _ in dealt):
            view = await asgi.client.get(f"{table.path}/view", headers=table.headers(viewer))
            assert len(view.json()["hand"]) == 10


@EVERY_SIZE
async def test_the_stream_sends_each_event_once_as_it_happens_and_ends_with_the_match(
    asgi: Asgi, seats: int
) -> None:
    # Bots at the even seats answer within the persons' commands; seat 1's stream is read.
    bots = ["random" if seat % 2 == 0 else None for seat in range(seats)]
    table = await create_at(asgi.client, seats, ONE_HAND, bots=bots)
    created = await events(asgi, table, 1)
    assert [e["event"]["type"] for e in created][:2] == CREATED[seats]
    chunks: list[bytes] = []
    stream = asyncio.create_task(
        read_stream(asgi.app, f"{table.path}/stream", table.headers(1), chunks.append)
    )
    # Before any command: the events of the match's creation arrive on their own.
    await asyncio.wait_for(_messages_arrive(chunks, len(created)), 10)
    assert [m["data"] for m in sse_messages(b"".join(chunks).decode())] == created
    await play_out(asgi.client, table, random.Random(8))
    assert await asyncio.wait_for(stream, 10) == 200
    messages = sse_messages(b"".join(chunks).decode())
    feed = await events(asgi, table, 1)
    assert [m["id"] for m in messages] == list(range(1, feed[-1]["version"] + 1))
    assert all(m["id"] == m["data"]["version"] for m in messages)
    assert all(m["event"] == m["data"]["event"]["type"] for m in messages)
    assert messages[-1]["event"] == WON[seats]
    assert len(chunks) > 1, "the events came as they happened, not all at the end"
    # The feed read now shows the ended hands' cards, which the stream could not show live.
    assert [m["data"]["version"] for m in messages] == [e["version"] for e in feed]
    assert [m["data"]["event"]["type"] for m in messages] == [
        envelope["event"]["type"] for envelope in feed
    ]


async def _messages_arrive(chunks: list[bytes], count: int) -> None:
    while len(sse_messages(b"".join(chunks).decode())) < count:
        await asyncio.sleep(0.01)


@EVERY_SIZE
async def test_each_stream_is_its_events_and_resumes_after_the_last_event_id(
    asgi: Asgi, seats: int
) -> None:
    table = await create_at(asgi.client, seats, ONE_HAND)
    await play_out(asgi.client, table, random.Random(9))
    for viewer in [*table.tokens, None]:
        feed = await events(asgi, table, viewer)
        whole = await _read(asgi, table, viewer, {})
        assert [m["data"] for m in whole] == feed
        assert [m["event"] for m in whole] == [e["event"]["type"] for e in feed]
        assert whole[-1]["event"] == WON[seats]
        middle = len(feed) // 2
        resumed = await _read(asgi, table, viewer, {"Last-Event-ID": str(middle)})
        assert [m["id"] for m in resumed] == list(range(middle + 1, len(feed) + 1))
        assert [m["data"] for m in resumed] == feed[middle:]


async def _read(asgi: Asgi, table: Table, viewer: int | None, extra: dict[str, str]) -> list[Json]:
    chunks: list[bytes] = []
    headers = {**headers_of(table, viewer), **extra}
    status = await asyncio.wait_for(
        read_stream(asgi.app, f"{table.path}/stream", headers, chunks.append), 10
    )
    assert status == 200
    return sse_messages(b"".join(chunks).decode())


@EVERY_SIZE
async def test_a_bad_last_event_id_is_refused(asgi: Asgi, seats: int) -> None:
    table = await create_at(asgi.client, seats)
    headers = {**table.headers(0), "Last-Event-ID": "seven"}
    response = await asgi.client.get(f"{table.path}/stream", headers=headers)
    assert_problem(response, 400, "invalid-parameter")
