"""A person at the page: plays whatever the page offers, as a player would, by mouse or keys.

It goes out as soon as the page offers it (gin, then a knock with the first arrangement shown),
lays off card by card whatever the page offers, and otherwise draws from the stock and throws
the highest card of its deadwood, so a hand ends within a few dozen moves."""

from __future__ import annotations

from playwright.async_api import Locator, Page, expect

# Whoever goes out first, in this order; the rest keep the hand going.
GOING_OUT = ("[data-action=big_gin]", "[data-action=gin]", "[data-action=knock]")
KEEPING_ON = (
    "[data-action=lay_off]",
    "[data-action=finish_layoff]",
    "[data-action=choose_dealer]",
    "[data-action=pass_upcard]",
    "[data-action=draw_from_stock]",
)
KEYS = {"[data-action=draw_from_stock]": "s", "[data-action=pass_upcard]": "p"}


def board(page: Page) -> Locator:
    return page.locator("main")


async def version(page: Page) -> str:
    return await board(page).get_attribute("data-version") or ""


async def my_turn(page: Page) -> bool:
    return await board(page).get_attribute("data-turn") == "me"


async def match_over(page: Page) -> bool:
    return await board(page).get_attribute("data-phase") == "match_over"


async def play_one_move(page: Page, *, keyboard: bool) -> None:
    """One move of the seat whose turn it is, waiting until the page shows its outcome."""
    before = await version(page)
    knock_menu = page.locator("[data-action=knock-menu]")
    if await knock_menu.count():
        await knock_menu.press("k") if keyboard else await knock_menu.click()
    await _first_offered(page, keyboard)
    await expect(board(page)).not_to_have_attribute("data-version", before)


async def _first_offered(page: Page, keyboard: bool) -> None:
    for selector in (*GOING_OUT, *KEEPING_ON):
        button = page.locator(selector).first
        if await button.count():
            if keyboard and selector in KEYS:
                await page.keyboard.press(KEYS[selector])
            else:
                await button.click()
            return
    # Discarding: the highest card of the deadwood, else any card the page lets go.
    for selector in (".hand .deadwood button.card", ".hand button.card"):
        names = await page.locator(selector).evaluate_all("cards => cards.map(c => c.dataset.card)")
        if names:
            card = page.locator(f".hand button.card[data-card='{max(names, key=_value)}']")
            if keyboard:
                await card.focus()
                await page.keyboard.press("Enter")
            else:
                await card.click()
            return
    raise AssertionError(f"nothing to do on the page:\n{await board(page).inner_text()}")


def _value(card: str) -> int:
    return min("A23456789TJQK".index(card[0]) + 1, 10)
