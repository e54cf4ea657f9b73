"""A person at the page: plays whatever the page offers, as a player would, by mouse or keys.

It goes out as soon as the page offers it (gin, then a knock with the first arrangement shown),
lays off card by card whatever the page offers, and otherwise draws from the stock and throws
the highest card of its deadwood, so a hand ends within a few dozen moves."""

from __future__ import annotations

from typing import Any

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


# What the page offers, read in one round trip rather than one a selector: the first of
# ``selectors`` present, else the cards the hand may let go (its deadwood's, if it shows one).
OFFERED = """(selectors) => {
  const cards = (selector) => [...document.querySelectorAll(selector)].map((c) => c.dataset.card);
  const deadwood = cards(".hand .deadwood button.card");
  return {
    version: document.querySelector("main")?.dataset.version ?? "",
    knockMenu: document.querySelector("[data-action=knock-menu]") !== null,
    first: selectors.find((selector) => document.querySelector(selector) !== null) ?? null,
    cards: deadwood.length ? deadwood : cards(".hand button.card"),
  };
}"""


async def play_one_move(page: Page, *, keyboard: bool) -> None:
    """One move of the seat whose turn it is, waiting until the page shows its outcome."""
    offered = await page.evaluate(OFFERED, [*GOING_OUT, *KEEPING_ON])
    before = offered["version"]
    if offered["knockMenu"]:
        knock_menu = page.locator("[data-action=knock-menu]")
        await knock_menu.press("k") if keyboard else await knock_menu.click()
        offered = await page.evaluate(OFFERED, [*GOING_OUT, *KEEPING_ON])
    await _take(page, offered, keyboard)
    try:
        await expect(board(page)).not_to_have_attribute("data-version", before)
    except AssertionError as error:
        said = await page.locator("[role=status]").all_inner_texts()
        busy = await page.locator(".board").get_attribute("aria-busy")
        raise AssertionError(
            f"{error}\ntook {offered}; the page says {said}; its move in flight: {busy}"
        ) from error


async def _take(page: Page, offered: dict[str, Any], keyboard: bool) -> None:
    selector = offered["first"]
    if selector is not None:
        if keyboard and selector in KEYS:
            await page.keyboard.press(KEYS[selector])
        else:
            await page.locator(selector).first.click()
        return
    # Discarding: the highest card of the deadwood, else any card the page lets go.
    if offered["cards"]:
        card = page.locator(f".hand button.card[data-card='{max(offered['cards'], key=_value)}']")
        if keyboard:
            await card.focus()
            await page.keyboard.press("Enter")
        else:
            await card.click()
        return
    raise AssertionError(f"nothing to do on the page:\n{await board(page).inner_text()}")


def _value(card: str) -> int:
    return min("A23456789TJQK".index(card[0]) + 1, 10)
