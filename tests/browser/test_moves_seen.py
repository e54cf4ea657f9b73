"""The other seats' moves shown as they happen, at every table size: a bot's moves come back
in the same answer as the person's own move, so the page reads them from the live stream and
says each one in words, for a moment, in the move log and to screen readers."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, Pages
from tests.browser.table import match_over, my_turn, play_one_move
from tests.browser.test_play import start

MOVES = 60
CARD = r"(10|[A2-9JQK])[♣♦♥♠]"
SPOKEN_CARD = (
    r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(clubs|diamonds|hearts|spades)"
)
OTHERS = {
    2: r"Your opponent",
    3: r"Seat [12] \(simple bot\)",
    4: r"Seat [123] \((partner, )?simple bot\)",
}
# Every move another seat makes, as the page says it; a card drawn from the stock unnamed.
MOVE = (
    r"(drew from the stock|passed the upcard|took {card} from the discard pile|discarded {card}"
    r"|knocked with \d+ deadwood|went gin|went big gin|laid off {card} on meld \d+)\.$"
)


async def others_moves(page: Page) -> list[str]:
    return await page.locator(".move-log li[data-mine=false]").all_inner_texts()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_the_other_seats_moves_are_shown_as_they_happen(pages: Pages, players: int) -> None:
    page = await pages.open("/", viewport=DESKTOP)
    await start(page, "bot", players, 100)
    discards = re.compile(rf"^{OTHERS[players]} discarded {CARD}\.$")
    for _ in range(MOVES):
        if any(discards.match(line) for line in await others_moves(page)):
            break
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        if await match_over(page):
            break
        if await my_turn(page):
            await play_one_move(page, keyboard=False)
    lines = await others_moves(page)
    assert any(discards.match(line) for line in lines), lines
    said = re.compile(rf"^{OTHERS[players]} {MOVE.format(card=CARD)}|^.+ scored \d+ points?\.$")
    assert all(said.match(line) for line in lines), lines

    # The last of them shown for a moment, and said to screen readers in the same words,
    # the cards by name.
    await expect(page.locator(".last-move")).to_have_text(lines[-1])
    spoken = page.locator(".spoken-moves[aria-live=polite]")
    words = re.sub(CARD, "CARD", lines[-1])
    text = re.sub(SPOKEN_CARD, "CARD", await spoken.inner_text())
    assert words in text, (words, text)
