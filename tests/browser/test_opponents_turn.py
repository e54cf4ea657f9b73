"""Against bots, the other seats' moves come back in the same answer as the person's own, yet
the page does not jump straight to "Your turn": after a move that passes the turn, it says
whose turn it is (the opponent's), offers no move, and shows the bots' moves, then gives the
person their turn. The live stream can bring that turn before the answer: a move made then
waits for the answer and is not lost. At every table size."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Page, Route, expect

from tests.browser.conftest import DESKTOP, Pages, ReducedMotion
from tests.browser.table import (
    GOING_OUT,
    KEEPING_ON,
    OFFERED,
    board,
    match_over,
    my_turn,
    play_one_move,
)
from tests.browser.test_play import start

MOVES = 80
# Every state of the status line, the board's turn, its moves offered and the version of the
# view drawn, in order, kept by the page itself.
WATCH = """() => {
  window.seen = [];
  const note = () => {
    const status = document.querySelector(".play .status");
    const main = document.querySelector("main");
    const buttons = document.querySelectorAll(".hand button").length;
    const at = main?.dataset.version ?? "";
    const entry = [status?.textContent ?? "", main?.dataset.turn ?? "", buttons, at];
    const last = window.seen.at(-1);
    if (!last || last.join() !== entry.join()) window.seen.push(entry);
  };
  const all = { subtree: true, childList: true, characterData: true, attributes: true };
  new MutationObserver(note).observe(document.body, all);
}"""
OPPONENT = {2: "Your opponent's turn.", 3: "(simple bot)'s turn.", 4: "(simple bot)'s turn."}


async def seen(page: Page) -> list[tuple[str, str, int, str]]:
    return [tuple(entry) for entry in await page.evaluate("() => window.seen")]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "motion"),
    [(2, "no-preference"), (3, "no-preference"), (4, "no-preference"), (2, "reduce")],
)
async def test_the_opponents_turn_is_shown_while_the_bots_move(
    pages: Pages, players: int, motion: ReducedMotion
) -> None:
    """Asked for reduced motion, the page offers the next move at once instead."""
    page = await pages.open("/", viewport=DESKTOP, reduced_motion=motion)
    await start(page, "bot", players, 500)
    await page.evaluate(WATCH)
    turns_back = 0
    for _ in range(MOVES):
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        if await match_over(page) or turns_back >= 3:
            break
        if not await my_turn(page):
            continue
        discarding = await page.locator(".hand button.card").count() > 0
        before = len(await seen(page))
        await play_one_move(page, keyboard=False)
        if not discarding:
            continue
        await expect(board(page)).to_have_attribute("data-turn", "me", timeout=15_000)
        after = (await seen(page))[before:]
        if motion == "no-preference" and not any(turn == "them" for _, turn, _, _ in after):
            continue  # the hand ended with this move
        # No move offered while it is not the person's turn.
        assert all(buttons == 0 for _, turn, buttons, _ in after if turn == "them"), after
        assert after[-1][1] == "me", after
        if after[-1][0].startswith("Your turn"):
            # The bots drew and discarded: their turn was said before the person's again, with
            # the view that holds their moves already in hand (not only while the page happened
            # to read the view before the bots had moved).
            final = after[-1][3]
            waiting = [text for text, turn, _, at in after[:-1] if turn == "them" and at == final]
            said = any(text.endswith(OPPONENT[players]) for text in waiting)
            assert said == (motion == "no-preference"), after
            turns_back += 1
    assert turns_back >= 1
    # The page never said it was the person's turn while it was not.
    assert not [e for e in await seen(page) if e[1] == "them" and e[0].startswith("Your turn")]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_move_made_before_the_last_answer_is_back_is_sent_after_it(
    pages: Pages, players: int
) -> None:
    """The answer to the person's discard is held back in the browser; the stream shows the
    bots' moves and the person's turn to draw, and the person presses "s" at once: once the
    answer is in, the draw is made (the page used to drop it, the move before still busy)."""
    page = await pages.open("/", viewport=DESKTOP)
    await start(page, "bot", players, 500)
    release, held = asyncio.Event(), []
    release.set()

    async def hold(route: Route) -> None:
        """The answer reaches the page only once ``release`` is set."""
        if not release.is_set():
            held.append(route.request.url)
        answer = await route.fetch()  # the server decides and commits the move now
        await release.wait()
        await route.fulfill(response=answer)

    await page.route("**/commands", hold)
    for _ in range(MOVES):
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        assert not await match_over(page), "no turn to draw came back while an answer was held"
        offered = await page.evaluate(OFFERED, [*GOING_OUT, *KEEPING_ON])
        if offered["first"] is not None or not offered["cards"]:
            await play_one_move(page, keyboard=False)
            continue
        release.clear()
        held.clear()
        await page.locator(f".hand button.card[data-card='{offered['cards'][0]}']").click()
        try:
            # Only a view after the bots' answer offers a draw (the discard's offered none).
            await expect(page.locator("[data-action=draw_from_stock]")).to_be_visible()
        except AssertionError:
            # The hand ended, and at three seats the person may sit the next one out: bots
            # then play it within that same answer. Another discard, then.
            release.set()
            continue
        assert held, "the discard's answer was not held back"
        await page.keyboard.press("s")
        release.set()
        await expect(page.locator(".hand .card")).to_have_count(11)
        status = await page.locator("[role=status]").inner_text()
        assert status.startswith("Your turn"), status
        return
    raise AssertionError("the person never had a turn to draw after a discard")
