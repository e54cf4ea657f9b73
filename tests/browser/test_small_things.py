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
    await page.locator("[data-start=bot]").wait_for()
    said = await page.evaluate(
        """() => import("/i18n.js").then(({ t }) => [
          t("points", { count: 1 }), t("points", { count: 0 }), t("points", { count: 12 }),
          t("result.youScore", { points: t("points", { count: 1 }) }),
          t("result.scores", { who: "Seat 2", points: t("points", { count: 3 }) }),
        ])"""
    )
    assert said == [
        "1 point",
        "0 points",
        "12 points",
        "You score 1 point.",
        "Seat 2 scores 3 points.",
    ]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("hr", ["1 bod", "2 boda", "5 bodova", "21 bod", "1 karta", "3 karte", "11 karata"]),
        (
            "ro",
            [
                "1 punct",
                "2 puncte",
                "20 de puncte",
                "101 puncte",
                "1 carte",
                "3 cărți",
                "31 de cărți",
            ],
        ),
    ],
)
async def test_plurals_follow_the_language(pages: Pages, language: str, said: list[str]) -> None:
    page = await pages.open("/", locale=language)
    await page.locator("[data-start=bot]").wait_for()
    counts = {"hr": [1, 2, 5, 21, 1, 3, 11], "ro": [1, 2, 20, 101, 1, 3, 31]}[language]
    shown = await page.evaluate(
        """(counts) => import("/i18n.js").then(({ t }) =>
          counts.map((count, i) => t(i < 4 ? "points" : "cards", { count })))""",
        counts,
    )
    assert shown == said


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
