"""Whole matches played through the page, as people play them: against a bot on a phone and
on a desktop (by keyboard there), and between two people, each in a browser of their own,
joined by an invite link."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Pages
from tests.browser.table import board, match_over, my_turn, play_one_move

MOVES = 2000
SPOKEN_CARD = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(clubs|diamonds|hearts|spades)"
)


async def start(page: Page, how: str, game_target: int) -> None:
    await page.get_by_label("Game to").fill(str(game_target))
    await page.locator(f"[data-start={how}]").click()
    await expect(board(page)).to_have_attribute("data-version", re.compile(r"\d+"))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("viewport", "keyboard"), [(PHONE, False), (DESKTOP, True)], ids=["phone", "desktop-keys"]
)
async def test_a_match_against_a_bot_to_the_end(
    pages: Pages, viewport: dict[str, int], keyboard: bool
) -> None:
    page = await pages.open("/", viewport=viewport)
    await start(page, "bot", game_target=10)

    for _ in range(MOVES):
        # The bot answers within the command, or (its first move) through the live stream.
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1
        )
        if await match_over(page):
            break
        cards = page.locator(".hand .card")
        if await cards.count():
            label = await cards.first.get_attribute("aria-label") or ""
            assert SPOKEN_CARD.match(label), label
        await play_one_move(page, keyboard=keyboard)
    else:
        raise AssertionError("the match did not end")

    await expect(page.locator(".over")).to_be_visible()
    await expect(page.locator(".result [data-result]")).to_be_visible()
    # Both hands of the last hand are shown, ten or eleven cards each.
    assert await page.locator(".result .cards").count() == 2
    assert await page.locator(".result .card").count() >= 20
    assert not await page.locator("body").evaluate("b => b.scrollWidth > window.innerWidth")


@pytest.mark.slow
async def test_two_people_play_a_match_through_an_invite_link(pages: Pages) -> None:
    host = await pages.open("/")
    await start(host, "friend", game_target=10)
    link = await host.locator("[data-invite]").get_attribute("data-invite")
    assert link is not None
    assert "#/join/inv_" in link
    guest = await pages.open(link.removeprefix(pages.base_url), viewport=PHONE)
    await expect(board(guest)).to_have_attribute("data-version", re.compile(r"\d+"))
    # The host hears of the join (the cut) through the live stream alone.
    await expect(board(host)).to_have_attribute(
        "data-version", await board(guest).get_attribute("data-version") or ""
    )

    for _ in range(MOVES):
        if await match_over(host) and await match_over(guest):
            break
        mover = host if await my_turn(host) else guest
        waiting = guest if mover is host else host
        await play_one_move(mover, keyboard=False)
        # The other player sees the move through the live stream alone.
        await expect(board(waiting)).to_have_attribute(
            "data-version", await board(mover).get_attribute("data-version") or ""
        )
    else:
        raise AssertionError("the match did not end")

    winner = 0 if await host.locator(".over h2").inner_text() == "You won the match" else 1
    loser_text = await (guest if winner == 0 else host).locator(".over h2").inner_text()
    assert loser_text == "Your opponent won the match"
