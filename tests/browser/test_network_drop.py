"""The page follows a match live across a network drop (the server keeps running): the
browser goes offline while the other seat plays on, comes back, and the page catches up by
itself with every move made meanwhile."""

from __future__ import annotations

import random

import httpx
import pytest
from playwright.async_api import expect

from bench.servers import Server
from tests.api.players import create_table
from tests.browser.conftest import Pages
from tests.browser.table import board
from tests.browser.test_live import move, moves_seen

# Chromium's lines for the requests the dropped network fails.
OFFLINE = ("net::ERR_INTERNET_DISCONNECTED", "net::ERR_NETWORK_CHANGED")


@pytest.mark.slow
async def test_the_page_catches_up_after_the_network_drops(pages: Pages, server: Server) -> None:
    pages.tolerated = OFFLINE
    rng = random.Random(11)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table = await create_table(http, game_target=500, match_target=0)
        page = await pages.open_seat(table)
        await moves_seen(http, table, page, rng, 2)

        await page.context.set_offline(True)
        await expect(page.locator(".status")).to_contain_text("Reconnecting")
        for _ in range(5):
            version = await move(http, table, rng)
        await page.wait_for_timeout(1000)
        assert await board(page).get_attribute("data-version") != str(version)

        await page.context.set_offline(False)
        await expect(board(page)).to_have_attribute("data-version", str(version), timeout=15_000)
        await expect(page.locator(".status")).not_to_contain_text("Reconnecting")
        # Still live: a move after the drop arrives by the stream.
        await moves_seen(http, table, page, rng, 1)
