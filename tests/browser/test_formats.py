"""Three- and four-player matches played through the page against the server's bots: started
from the lobby, played with the same controls as a two-player match (by mouse on a phone, by
keys on a desktop), followed live while the bots play on, to the match's end with every
round's hands and the scores by side shown."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Pages
from tests.browser.table import board, match_over, my_turn, play_one_move

MOVES = 2000
# A first round can end the game while the person sits out, or after a move or two: then
# another match, until one where the person made a few moves.
MATCHES_TRIED = 5
MOVES_WANTED = 3
SCORE = re.compile(r"^\d+ \(match \d+\)$")


async def start(page: Page, players: int, game_target: int) -> None:
    await page.get_by_label("Players").select_option(str(players))
    await expect(page.get_by_label("Clock")).to_be_disabled()
    await page.get_by_label("Game to").fill(str(game_target))
    await page.locator("[data-start=bot]").click()
    await expect(board(page)).to_have_attribute("data-players", str(players))


async def play_to_the_end(page: Page, *, keyboard: bool) -> int:
    """Plays the person's seat until the match is over; the moves it made."""
    for moves in range(MOVES):
        # The bots answer within the command, or through the live stream while the person
        # waits (sitting a hand out, or for the other table).
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        if await match_over(page):
            return moves
        await play_one_move(page, keyboard=keyboard)
    raise AssertionError("the match did not end")


async def play_a_match(
    page: Page, players: int, *, keyboard: bool, at_start: Callable[[Page], Awaitable[None]]
) -> None:
    """A match started from the lobby (``at_start`` checks its first screen) and played to
    its end, with the person making ``MOVES_WANTED`` moves at least."""
    for _ in range(MATCHES_TRIED):
        await page.goto("/")
        await start(page, players, game_target=40)
        await at_start(page)
        if await play_to_the_end(page, keyboard=keyboard) >= MOVES_WANTED:
            return
    raise AssertionError(f"no match of {MATCHES_TRIED} let the person make {MOVES_WANTED} moves")


async def scores_by_side(page: Page) -> dict[str, str]:
    names = await page.locator(".scores dt").all_inner_texts()
    values = await page.locator(".scores dd").all_inner_texts()
    return dict(zip(names, values, strict=True))


@pytest.mark.slow
async def test_three_players_against_two_bots_on_a_phone(pages: Pages) -> None:
    page = await pages.open("/", viewport=PHONE)
    await play_a_match(page, 3, keyboard=False, at_start=three_players_at_start)

    await expect(page.locator(".over h2")).to_have_text(
        re.compile(r"^(You|Seat [12] \(simple bot\)) won the match$")
    )
    await expect(page.locator(".result [data-result=round]")).to_be_visible()
    # The last round's hand, both hands shown as the rules reveal them at its end.
    await expect(page.locator(".ended-hand")).to_have_count(1)
    assert await page.locator(".ended-hand .card").count() >= 20
    await expect(page.locator(".game li")).to_have_count(3)  # each pair of players settles
    scores = await scores_by_side(page)
    assert all(SCORE.match(value) for name, value in scores.items() if name != "Game to")
    assert not await page.locator("body").evaluate("b => b.scrollWidth > window.innerWidth")


async def three_players_at_start(page: Page) -> None:
    scores = await scores_by_side(page)
    assert list(scores)[:3] == ["You", "Seat 1 (simple bot)", "Seat 2 (simple bot)"]
    # The seat plays at the table or sits the hand out (holding no cards), never both.
    if not await page.locator(".hand").count():
        # The bots may have played the hand, and the match, to its end already.
        status = page.locator("[role=status]")
        await expect(status).to_have_text(re.compile(r"^You sit this hand out|won the match\.$"))
    else:
        await expect(page.locator(".hand .card")).to_have_count(10)
        await expect(page.locator(".opponent h2")).to_have_text(re.compile(r"^Seat [12] "))
        sitter = page.locator("[data-sitting-out]")
        await expect(sitter).to_have_text(re.compile(r"sits this hand out"))


@pytest.mark.slow
async def test_four_players_in_partnership_with_the_keys(pages: Pages) -> None:
    page = await pages.open("/", viewport=DESKTOP)
    await play_a_match(page, 4, keyboard=True, at_start=four_players_at_start)

    await expect(page.locator(".over h2")).to_have_text(
        re.compile(r"^(Your|The other) team won the match$")
    )
    # The last round: one hand at each table, both hands of each shown.
    await expect(page.locator(".ended-hand")).to_have_count(2)
    assert await page.locator(".ended-hand .card").count() >= 40
    await expect(page.locator(".game li")).to_have_count(1)  # the two teams settle


async def four_players_at_start(page: Page) -> None:
    scores = await scores_by_side(page)
    assert list(scores)[:2] == ["Your team (seats 0 and 2)", "Their team (seats 1 and 3)"]
    # Both tables play every hand: the person's, and the other one, seen as anybody sees it.
    await expect(page.locator(".hand .card")).to_have_count(10)
    await expect(page.locator(".other-table")).to_have_count(1)
    # Partners sit at different tables: each plays an opponent.
    partner, opponent = "Seat 2 (partner, simple bot)", r"Seat [13] \(simple bot\)"
    partner = re.escape(partner)
    await expect(page.locator(".other-table p").first).to_have_text(
        re.compile(rf"^({partner} against {opponent}|{opponent} against {partner}):")
    )
    await expect(page.locator(".opponent h2")).to_have_text(re.compile(rf"^{opponent}$"))


@pytest.mark.slow
async def test_three_people_joined_by_invite_links_follow_each_other_live(pages: Pages) -> None:
    host = await pages.open("/")
    await host.get_by_label("Players").select_option("3")
    await host.get_by_label("Game to").fill("20")
    await host.locator("[data-start=friend]").click()
    links = host.locator("[data-invite]")
    await expect(links).to_have_count(2)
    guests = []
    for index in range(2):
        link = await links.nth(index).get_attribute("data-invite")
        assert link is not None
        assert "#/join/inv_" in link
        guests.append(await pages.open(link.removeprefix(pages.base_url), viewport=PHONE))
    seats = [host, *guests]
    # The last join starts the match: the host hears of it through the live stream alone.
    for page in seats:
        await expect(board(page)).to_have_attribute("data-phase", "play")
    await expect(host.locator("[data-invite]")).to_have_count(0)

    for _ in range(MOVES):
        if all([await match_over(page) for page in seats]):
            break
        movers = [page for page in seats if await my_turn(page)]
        if not movers:  # a page between a round's end and the next round's deal
            await host.wait_for_timeout(100)
            continue
        mover = movers[0]
        await play_one_move(mover, keyboard=False)
        # Everybody sees every move, the seat sitting out included, through the stream.
        version = await board(mover).get_attribute("data-version") or ""
        for page in seats:
            await expect(board(page)).to_have_attribute("data-version", version)
    else:
        raise AssertionError("the match did not end")

    outcomes = [await page.locator(".over h2").inner_text() for page in seats]
    assert outcomes.count("You won the match") == 1, outcomes
    await expect(host.locator(".ended-hand")).to_have_count(1)
