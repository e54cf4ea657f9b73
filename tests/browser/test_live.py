"""The page follows a match live and recovers by itself: the server is killed and started
again on the same port while the other seat keeps playing, and the page shows every move."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from bench.servers import free_port, gin_serve
from tests.api.players import Table, choose, create_table
from tests.browser.conftest import Pages
from tests.browser.table import board, play_one_move

# Chromium's own lines for the stream cut off by the crash, and for connections refused while
# no server listens.
# A killed server cuts what was in flight (a stream, or a request on a kept-alive connection)
# and refuses connections until the next one starts.
CUT_OFF = (
    "net::ERR_INCOMPLETE_CHUNKED_ENCODING",
    "net::ERR_CONNECTION_RESET",
    "net::ERR_CONNECTION_REFUSED",
)


async def move(http: httpx.AsyncClient, table: Table, rng: random.Random) -> int:
    """One legal move by whichever seat is to move; the match's version after it."""
    view = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
    if view["turn"] != 0:
        view = (await http.get(f"{table.path}/view", headers=table.headers(1))).json()
    response = await http.post(
        f"{table.path}/commands", json=choose(view, rng), headers=table.headers(view["seat"])
    )
    assert response.status_code == 200, response.text
    version: int = response.json()["version"]
    return version


async def moves_seen(
    http: httpx.AsyncClient, table: Table, page: Page, rng: random.Random, count: int
) -> int:
    """``count`` moves, each shown by the page (told by its live stream) before the next; the
    match's version after the last."""
    version = 0
    for _ in range(count):
        version = await move(http, table, rng)
        await expect(board(page)).to_have_attribute("data-version", str(version))
    return version


@pytest.mark.slow
async def test_the_page_follows_the_match_across_a_server_restart(
    browser: Browser, fresh_database_url: str
) -> None:
    rng = random.Random(7)
    port = free_port()
    pages = Pages(browser, f"http://127.0.0.1:{port}", tolerated=CUT_OFF)
    with gin_serve(fresh_database_url, port=port) as first:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            table = await create_table(http, game_target=500, match_target=0)
            page = await pages.open_seat(table)
            await moves_seen(http, table, page, rng, 3)
        first.kill()  # as a crash: no goodbye to the stream

    with gin_serve(fresh_database_url, port=port) as second:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            for _ in range(6):
                version = await move(http, table, rng)
            # Only the live stream tells the page: it reconnected with a new ticket.
            await expect(board(page)).to_have_attribute("data-version", str(version))
            await expect(page.locator(".status")).not_to_contain_text("Reconnecting")
    await pages.close()


@pytest.mark.slow
async def test_a_move_while_the_server_is_down_says_reconnecting_and_picks_up_again(
    browser: Browser, fresh_database_url: str
) -> None:
    """The person moves while the server is down: the page says it is reconnecting (not the
    browser's "Failed to fetch"), and once the server is back it shows the match again, with
    nothing of the failure left on screen, and plays on."""
    rng = random.Random(3)
    port = free_port()
    pages = Pages(browser, f"http://127.0.0.1:{port}", tolerated=CUT_OFF)
    with gin_serve(fresh_database_url, port=port) as first:
        async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
            table = await create_table(http, game_target=500, match_target=0)
            page = await pages.open_seat(table)
            await moves_seen(http, table, page, rng, 2)
            while await board(page).get_attribute("data-turn") != "me":
                await moves_seen(http, table, page, rng, 1)
        first.kill()

    move_offered = page.locator("main button[data-action], .hand button.card").first
    await move_offered.click()
    status = page.locator(".status")
    await expect(status).to_contain_text("Reconnecting…")
    await expect(status).not_to_contain_text("Failed to fetch")

    with gin_serve(fresh_database_url, port=port) as second:
        async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
            view = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
            await expect(board(page)).to_have_attribute(
                "data-version", str(view["version"]), timeout=15_000
            )
            await expect(status).not_to_contain_text("Reconnecting", timeout=15_000)
            await expect(status).not_to_contain_text("fetch")
            # Playing on: the page's own move is taken, and the other seat's is seen.
            while await board(page).get_attribute("data-turn") == "me":
                await play_one_move(page, keyboard=False)
            await moves_seen(http, table, page, rng, 1)
    await pages.close()
