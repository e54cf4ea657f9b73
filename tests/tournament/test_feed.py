"""The global feed: every match's public events, paged gap-free by one cursor (``feed:read``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from adapters.postgres.event_store import PostgresEventStore
from service.store.match_streams import match_id_of
from service.tournament.operators import OperatorKeys
from tests.api.players import without_going_out
from tests.card_names import card_names_in
from tests.tournament.conftest import new_key
from tests.tournament.play import (
    Client,
    Json,
    Table,
    bearer,
    create_table,
    in_the_feed,
    play_commands,
    seat_view,
)

# No hand scores more than 129 points (big gin over 98 deadwood) or takes fewer than two
# commands, so a game to 10,000 cannot end within the few dozen commands these tests play.
LONG_GAME = {"game_target": 10_000, "match_target": 0}


@pytest.fixture(scope="module")
async def feed_key(keys: OperatorKeys) -> str:
    return await new_key(keys, "feed reader", "feed:read", "feed:all")


@pytest.fixture(scope="module")
async def store(database_url: str) -> AsyncIterator[PostgresEventStore]:
    async with PostgresEventStore.connect(database_url, max_size=2) as event_store:
        yield event_store


async def feed_page(client: Client, key: str, *, after: int, limit: int) -> Json:
    response = await client.get(
        "/feed", params={"after": after, "limit": limit}, headers=bearer(key)
    )
    assert response.status_code == 200, response.text
    page: Json = response.json()
    return page


async def read_feed(
    client: Client, key: str, *, limit: int = 100, after: int = 0
) -> tuple[list[Json], int]:
    """Every entry after ``after``, page by page; and the cursor to go on from."""
    entries: list[Json] = []
    while True:
        page = await feed_page(client, key, after=after, limit=limit)
        entries += page["entries"]
        if page["next"] == after:
            return entries, after
        after = page["next"]


def of_match(entries: list[Json], match_id: str) -> list[Json]:
    return [entry for entry in entries if entry["match_id"] == match_id]


async def test_feed_pages_every_event_of_every_match_in_log_order_without_gaps(
    client: Client, feed_key: str, store: PostgresEventStore
) -> None:
    tables = [await create_table(client, options=LONG_GAME) for _ in range(3)]
    seen: list[Json] = []
    cursor = 0
    playing = asyncio.gather(*(play_commands(client, table, 25) for table in tables))
    # Read small pages while the three matches are being played.
    while not playing.done():
        page = await feed_page(client, feed_key, after=cursor, limit=5)
        seen += page["entries"]
        cursor = page["next"]
        await asyncio.sleep(0.01)
    await playing
    await in_the_feed(client, feed_key, *(table.match_id for table in tables))
    rest, _ = await read_feed(client, feed_key, limit=5, after=cursor)
    seen += rest

    log = [r for r in await store.read_all(limit=10_000) if match_id_of(r.stream_id) is not None]
    assert [e["position"] for e in seen] == [r.position for r in log]
    for table in tables:
        versions = [e["version"] for e in of_match(seen, table.match_id)]
        assert versions == list(range(1, len(versions) + 1))
        assert len(versions) >= 25


async def test_feed_entries_are_what_a_spectator_of_the_match_sees(
    client: Client, feed_key: str
) -> None:
    finished = await create_table(client)
    going_on = await create_table(client, options=LONG_GAME)
    await play_commands(client, finished)
    await play_commands(client, going_on, 15)

    spectators = {
        table.match_id: (await client.get(f"/matches/{table.match_id}/events")).json()["events"]
        for table in (finished, going_on)
    }
    # The feed holds back what committed after a transaction still running (the app's own
    # background work) until it ends: read on until it lists each match's last event.
    for _ in range(100):
        entries, _ = await read_feed(client, feed_key)
        if all(
            len(of_match(entries, match_id)) >= len(events)
            for match_id, events in spectators.items()
        ):
            break
        await asyncio.sleep(0.05)

    for table in (finished, going_on):
        spectator = spectators[table.match_id]
        mine = of_match(entries, table.match_id)
        assert [(e["version"], e["data"]) for e in mine] == [
            (e["version"], e["event"]) for e in spectator
        ]
        assert all(e["type"] == e["data"]["type"] for e in mine)


def cards_in(entries: list[Json]) -> set[str]:
    text = json.dumps([entry["data"] for entry in entries])
    return card_names_in(text)


async def test_feed_hides_every_card_of_a_hand_in_progress_and_shows_them_once_it_is_over(
    client: Client, feed_key: str
) -> None:
    table = await create_table(client, options=LONG_GAME)
    _, start = await read_feed(client, feed_key)
    # The dealer is chosen, both seats pass the upcard, then three stock draws and discards.
    await play_without_going_out(client, table, 9)
    views = [await seat_view(client, table, seat) for seat in (0, 1)]
    assert views[0]["phase"] in ("draw", "discard"), "still in the first hand"

    during, _ = await read_feed(client, feed_key, after=start)
    hand = of_match(during, table.match_id)
    private = {
        card
        for view in views
        for card in view["hand"]
        if card not in view["took_from_pile"][view["seat"]]
    }
    assert private, "both seats hold cards nobody else has seen"
    assert cards_in(hand).isdisjoint(private)
    dealt = [e["data"] for e in hand if e["type"] == "dealt"]
    assert dealt == [{**dealt[0], "hands": [[], []], "stock": []}]
    assert all(e["data"]["card"] is None for e in hand if _stock_draw(e))
    assert any(_stock_draw(e) for e in hand)

    await _finish_hand(client, table)
    after_hand, _ = await read_feed(client, feed_key, after=start)
    shown = of_match(after_hand, table.match_id)
    dealt_now = next(e["data"] for e in shown if e["type"] == "dealt")
    assert [len(cards) for cards in dealt_now["hands"]] == [10, 10]
    assert dealt_now["stock"] == []
    deals = [e["version"] for e in shown if e["type"] == "dealt"]
    first_hand = [e for e in shown if len(deals) == 1 or e["version"] < deals[1]]
    assert all(e["data"]["card"] is not None for e in first_hand if _stock_draw(e))


async def play_without_going_out(client: Client, table: Table, count: int) -> None:
    for _ in range(count):
        seat = (await seat_view(client, table, 0))["turn"]
        view = await seat_view(client, table, seat)
        response = await client.post(
            f"/matches/{table.match_id}/commands",
            json=without_going_out(view),
            headers=table.headers(seat),
        )
        assert response.status_code == 200, response.text


def _stock_draw(entry: Json) -> bool:
    return bool(entry["type"] == "drew" and entry["data"]["source"] == "stock")


async def _finish_hand(client: Client, table: Table) -> None:
    """Play until the hand in progress has been scored or drawn."""
    hands_before = (await seat_view(client, table, 0))["hand_number"]
    for _ in range(500):
        view = await seat_view(client, table, 0)
        if view["phase"] == "match_over" or view["hand_number"] != hands_before:
            return
        await play_commands(client, table, 1)
    raise AssertionError("the hand does not end")


async def test_the_cursor_stays_put_when_nothing_new_has_happened(
    client: Client, feed_key: str
) -> None:
    _, end = await read_feed(client, feed_key)

    page = await feed_page(client, feed_key, after=end, limit=10)

    assert page == {"entries": [], "next": end}


async def test_an_unknown_cursor_is_refused(client: Client, feed_key: str) -> None:
    response = await client.get("/feed", params={"after": 10**15}, headers=bearer(feed_key))

    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"] == "/problems/unknown-position"


@pytest.mark.parametrize("limit", [0, 1001])
async def test_a_page_holds_1_to_1000_entries(client: Client, feed_key: str, limit: int) -> None:
    response = await client.get("/feed", params={"limit": limit}, headers=bearer(feed_key))

    assert response.status_code == 400
