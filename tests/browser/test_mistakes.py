"""Easy mistakes caught, on the page's own modules given a hand that shows them (a live deal
cannot be chosen): a lay-off button for a card of one of the player's own melds says that it
breaks the meld, and the ways to knock are listed least deadwood first, whatever the card put
face down."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from tests.browser.conftest import Pages

LAYOFFS = """async () => {
  const { knockOnTable } = await import("/moves.js");
  const view = {
    seat: 1, hand: ["5h", "6h", "7h", "Qd", "2c", "9s", "3d", "4c", "Jc", "Ks"],
    discard_pile: [], stock_size: 20, knock_limit: 10,
    knock: { knocker: 0, shown_melds: [], melds: [["8h", "9h", "Th"], ["Qs", "Qh", "Qc"]],
             deadwood: ["2d"], deadwood_count: 2, gin: false, big_gin: false, layoffs: [],
             knock_card: "Kd" },
  };
  const actions = [
    { type: "lay_off", seat: 1, card: "7h", meld: 0 },
    { type: "lay_off", seat: 1, card: "Qd", meld: 1 },
  ];
  const shown = knockOnTable(view, actions, () => {});
  return [...shown.querySelectorAll("button[data-action=lay_off]")].map((b) => ({
    text: b.textContent, breaks: b.dataset.breaksMeld ?? null, spoken: b.getAttribute("aria-label"),
  }));
}"""

KNOCKS = """async () => {
  const { knockChoices } = await import("/moves.js");
  const view = {
    seat: 0, hand: ["4h", "Ac", "2c", "3c", "5d", "6d", "7d", "8s", "8h", "8c", "Ks"],
    discard_pile: [], stock_size: 20, knock_limit: 10, knock: null,
  };
  const actions = [
    { type: "knock", seat: 0, card: "4h" },
    { type: "knock", seat: 0, card: "Ks" },
  ];
  const shown = knockChoices(view, actions, () => {});
  return [...shown.querySelectorAll("button")].map((b) => [b.dataset.card, b.textContent]);
}"""


async def lobby(pages: Pages) -> Page:
    """The page once it shows its lobby: its words are loaded (until then a message shows
    its key)."""
    page = await pages.open("/")
    await page.locator("[data-start=bot]").wait_for()
    return page


async def test_a_layoff_that_breaks_the_players_own_meld_says_so(pages: Pages) -> None:
    page = await lobby(pages)
    buttons: list[dict[str, Any]] = await page.evaluate(LAYOFFS)
    by_card = {button["text"].split()[2]: button for button in buttons}
    assert set(by_card) == {"7♥", "Q♦"}
    assert by_card["7♥"]["breaks"] == "true"
    assert "(breaks your meld)" in by_card["7♥"]["text"]
    assert "breaks one of your melds" in by_card["7♥"]["spoken"]
    assert by_card["Q♦"]["breaks"] is None
    assert by_card["Q♦"]["text"] == "Lay off Q♦"


async def test_the_ways_to_knock_are_listed_least_deadwood_first(pages: Pages) -> None:
    page = await lobby(pages)
    rows: list[list[str]] = await page.evaluate(KNOCKS)
    # Face down the king, the four of hearts is left: 4; face down the four, the king: 10.
    assert [card for card, _ in rows] == ["Ks", "4h"], rows
    assert [int(text.rsplit(" ", 1)[1]) for _, text in rows] == [4, 10], rows
