"""Small things a player notices: one point is "1 point" and "You score", the cut cards are
shown, every button is a 44 px touch target on a phone, and an invite link has a copy button."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import PHONE, Pages
from tests.browser.table import board
from tests.browser.test_play import start

TOUCH_PX = 44


async def test_one_point_and_you_score(pages: Pages) -> None:
    page = await pages.open("/")
    said = await page.evaluate(
        """() => import("/summary.js").then((m) => [
          m.points(1), m.points(0), m.points(12),
          `You ${m.verb("You", "score")}`, `Seat 2 ${m.verb("Seat 2", "score")}`,
        ])"""
    )
    assert said == ["1 point", "0 points", "12 points", "You score", "Seat 2 scores"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_the_cut_is_shown_and_buttons_are_touch_targets(pages: Pages, players: int) -> None:
    page = await pages.open("/", viewport=PHONE)
    # A game long enough that the first hand is still being played when the page shows it.
    await start(page, "bot", players, 500)
    cut = page.locator(".cut")
    await expect(cut).to_contain_text(re.compile(r"^The cut: "))
    assert await cut.locator(".card").count() >= players
    # Measured in one go in the page: the table is redrawn as the bots move.
    heights = await page.evaluate(
        """() => [...document.querySelectorAll("main button")]
            .filter((button) => button.offsetParent !== null)
            .map((button) => button.getBoundingClientRect().height)"""
    )
    assert heights
    assert all(height >= TOUCH_PX for height in heights), heights


@pytest.mark.slow
async def test_an_invite_link_can_be_copied(pages: Pages) -> None:
    page = await pages.open("/")
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    await page.locator("[data-start=friend]").click()
    await expect(board(page)).to_have_attribute("data-version", re.compile(r"\d+"))
    link = await page.locator("[data-invite]").get_attribute("data-invite")
    assert link
    assert "#/join/" in link
    await page.locator(f"button[data-copy='{link}']").click()
    await expect(page.locator(".copied")).to_have_text("Copied.")
    assert await page.evaluate("() => navigator.clipboard.readText()") == link
