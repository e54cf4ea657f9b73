"""Keyboard focus stays at the table after every move, at every table size: the board is
drawn again with each new view, and a keyboard player must not have to tab back in."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, Pages
from tests.browser.table import board, match_over, my_turn, version
from tests.browser.test_play import start

MOVES_CHECKED = 6
IN_BOARD = "() => Boolean(document.activeElement?.closest('.board'))"


async def move_by_keyboard(page: Page) -> None:
    """Enter on the control of one move, the hand kept going: pass, draw, then discard."""
    for selector in (
        "[data-action=choose_dealer]",
        "[data-action=pass_upcard]",
        "[data-action=draw_from_stock]",
        "[data-action=finish_layoff]",
    ):
        button = page.locator(selector).first
        if await button.count():
            await button.focus()
            await page.keyboard.press("Enter")
            return
    cards = page.locator(".hand .deadwood button.card, .hand button.card")
    await cards.first.focus()
    await page.keyboard.press("Enter")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_focus_stays_at_the_table_after_a_move(pages: Pages, players: int) -> None:
    page = await pages.open("/", viewport=DESKTOP)
    await start(page, "bot", players, 500)
    checked = 0
    for _ in range(40):
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        if await match_over(page) or checked >= MOVES_CHECKED:
            break
        if not await my_turn(page):
            continue
        before = await version(page)
        await move_by_keyboard(page)
        await expect(board(page)).not_to_have_attribute("data-version", before)
        assert await page.evaluate(IN_BOARD), await page.evaluate(
            "() => document.activeElement?.outerHTML"
        )
        checked += 1
    assert checked >= 3, checked
