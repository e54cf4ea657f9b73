"""Whole matches played through the page, as people play them, at every table size: against
the server's bots, started from the lobby, by mouse on a phone and by keys on a desktop,
followed live while the bots play on, to the match's end with the last hands and the scores
by side shown; and between people, each in a browser of their own, joined by invite links."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Pages
from tests.browser.table import (
    GOING_OUT,
    KEEPING_ON,
    OFFERED,
    board,
    match_over,
    my_turn,
    play_one_move,
)

MOVES = 2000
# A first round can end the game while the person sits out, or after a move or two: then
# another match, until one where the person made a few moves.
MATCHES_TRIED = 5
MOVES_WANTED = 3
SCORE = re.compile(r"^\d+ \(match \d+\)$")
SPOKEN_CARD = re.compile(
    r"^(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(clubs|diamonds|hearts|spades)"
)
# Who may have won, as the person's page says it.
WINNERS = {
    2: r"^(You|Your opponent) won the match$",
    3: r"^(You|Seat [12] \(simple bot\)) won the match$",
    4: r"^(Your|The other) team won the match$",
}
TABLES = {2: 1, 3: 1, 4: 2}
# The last game's settlements shown: between each pair of sides at three and four players.
SETTLEMENTS = {2: 0, 3: 3, 4: 1}


async def start(page: Page, how: str, players: int, game_target: int) -> None:
    await page.get_by_label("Players").select_option(str(players))
    await expect(page.get_by_label("Clock")).to_be_enabled()
    await page.get_by_label("Game to").fill(str(game_target))
    await page.locator(f"[data-start={how}]").click()
    await expect(board(page)).to_have_attribute("data-players", str(players))
    await expect(board(page)).to_have_attribute("data-version", re.compile(r"\d+"))


async def play_to_the_end(page: Page, *, keyboard: bool) -> int:
    """Plays the person's seat until the match is over; the moves it made."""
    for moves in range(MOVES):
        # The bots answer within the command, or through the live stream while the person
        # waits (its first move, sitting a hand out, or for the other table).
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        if await match_over(page):
            return moves
        cards = page.locator(".hand .card")
        if await cards.count():
            label = await cards.first.get_attribute("aria-label") or ""
            assert SPOKEN_CARD.match(label), label
        await play_one_move(page, keyboard=keyboard)
    raise AssertionError("the match did not end")


async def play_a_match(
    page: Page, players: int, *, keyboard: bool, at_start: Callable[[Page], Awaitable[None]]
) -> None:
    """A match started from the lobby (``at_start`` checks its first screen) and played to
    its end, with the person making ``MOVES_WANTED`` moves at least."""
    game_target = 10 if players == 2 else 40
    for _ in range(MATCHES_TRIED):
        await page.goto("/")
        await start(page, "bot", players, game_target)
        await at_start(page)
        if await play_to_the_end(page, keyboard=keyboard) >= MOVES_WANTED:
            return
    raise AssertionError(f"no match of {MATCHES_TRIED} let the person make {MOVES_WANTED} moves")


async def scores_by_side(page: Page) -> dict[str, str]:
    names = await page.locator(".scores dt").all_inner_texts()
    values = await page.locator(".scores dd").all_inner_texts()
    return dict(zip(names, values, strict=True))


async def two_players_at_start(page: Page) -> None:
    assert list(await scores_by_side(page))[:2] == ["You", "Your opponent"]
    # The person won the cut and chooses who deals, or holds the ten cards dealt.
    if not await page.get_by_text("You won the cut").count():
        await expect(page.locator(".hand .card")).to_have_count(10)
    await expect(page.locator(".opponent h2")).to_have_text("Your opponent")
    await expect(page.locator(".other-table, [data-sitting-out]")).to_have_count(0)


async def three_players_at_start(page: Page) -> None:
    # The bots' levels come with the public summary, read after the first view.
    await expect(page.locator(".scores dt").nth(1)).to_have_text("Seat 1 (simple bot)")
    scores = await scores_by_side(page)
    assert list(scores)[:3] == ["You", "Seat 1 (simple bot)", "Seat 2 (simple bot)"]
    status = page.locator("[role=status]")
    if re.search(r"won the match\.$", await status.inner_text()):
        return  # the bots played the match to its end (its summary shows every hand)
    # The seat plays at the table or sits the hand out (holding no cards), never both.
    if not await page.locator(".hand").count():
        # The bots may have played the hand, and the match, to its end already.
        await expect(status).to_have_text(re.compile(r"^You sit this hand out|won the match\.$"))
    else:
        await expect(page.locator(".hand .card")).to_have_count(10)
        await expect(page.locator(".opponent h2")).to_have_text(re.compile(r"^Seat [12] "))
        sitter = page.locator("[data-sitting-out]")
        await expect(sitter).to_have_text(re.compile(r"sits this hand out"))


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


AT_START = {2: two_players_at_start, 3: three_players_at_start, 4: four_players_at_start}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "viewport", "keyboard"),
    [(2, PHONE, False), (2, DESKTOP, True), (3, PHONE, False), (4, DESKTOP, True)],
    ids=["2-phone", "2-desktop-keys", "3-phone", "4-desktop-keys"],
)
async def test_a_match_against_the_bots_to_the_end(
    pages: Pages, players: int, viewport: dict[str, int], keyboard: bool
) -> None:
    page = await pages.open("/", viewport=viewport)
    await play_a_match(page, players, keyboard=keyboard, at_start=AT_START[players])

    await expect(page.locator(".over h2")).to_have_text(re.compile(WINNERS[players]))
    await expect(page.locator(".result [data-result]").first).to_be_visible()
    # The last hand at every table, both hands shown as the rules reveal them at its end.
    tables = TABLES[players]
    await expect(page.locator(".result .ended-hand")).to_have_count(tables)
    assert await page.locator(".ended-hand .ended-seat .cards").count() == 2 * tables
    assert await page.locator(".ended-hand .card").count() >= 20 * tables
    await expect(page.locator(".game li")).to_have_count(SETTLEMENTS[players])
    scores = await scores_by_side(page)
    assert all(SCORE.match(value) for name, value in scores.items() if name != "Game to")
    assert not await page.locator("body").evaluate("b => b.scrollWidth > window.innerWidth")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_people_joined_by_invite_links_follow_each_other_live(
    pages: Pages, players: int
) -> None:
    host = await pages.open("/")
    await host.get_by_label("Players").select_option(str(players))
    await host.get_by_label("Game to").fill("10")
    await host.locator("[data-start=friend]").click()
    links = host.locator("[data-invite]")
    await expect(links).to_have_count(players - 1)
    guests = []
    for index in range(players - 1):
        link = await links.nth(index).get_attribute("data-invite")
        assert link is not None
        assert "#/join/inv_" in link
        guests.append(await pages.open(link.removeprefix(pages.base_url), viewport=PHONE))
    seats = [host, *guests]
    # The last join starts the match: the host hears of it through the live stream alone.
    await expect(board(guests[-1])).to_have_attribute("data-version", re.compile(r"\d+"))
    version = await board(guests[-1]).get_attribute("data-version") or ""
    for page in seats:
        await expect(board(page)).to_have_attribute("data-version", version)
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
        # Everybody sees every move, a seat sitting out included, through the stream.
        version = await board(mover).get_attribute("data-version") or ""
        for page in seats:
            await expect(board(page)).to_have_attribute("data-version", version)
    else:
        raise AssertionError("the match did not end")

    outcomes = [await page.locator(".over h2").inner_text() for page in seats]
    # The winner's page says so (both partners' with four), every other page names the winner.
    won = ("You won the match", "Your team won the match")
    winners = [seat for seat, outcome in enumerate(outcomes) if outcome in won]
    assert len(winners) == (2 if players == 4 else 1), outcomes
    assert len({seat % 2 for seat in winners}) == 1, outcomes
    lost = {2: "Your opponent", 3: f"Seat {winners[0]}", 4: "The other team"}[players]
    others = [outcome for seat, outcome in enumerate(outcomes) if seat not in winners]
    assert others == [f"{lost} won the match"] * (players - len(winners)), outcomes
    await expect(host.locator(".ended-hand")).to_have_count(TABLES[players])


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_the_lobby_reached_from_a_table_says_nothing_of_the_table(
    pages: Pages, players: int
) -> None:
    page = await pages.open("/")
    await start(page, "bot", players, 100)
    await page.goto("/#/")
    for name in ("data-version", "data-phase", "data-players", "data-turn"):
        await expect(board(page)).not_to_have_attribute(name, re.compile(".*"))
    await expect(page.locator("#players")).to_be_visible()


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_move_pressed_while_the_page_redraws_is_made(pages: Pages, players: int) -> None:
    """A browser sends no click when the element pressed is gone at the release: the page's
    redraws (a live event, an answer about another table) keep what they do not change."""
    page = await pages.open("/")
    for _ in range(MATCHES_TRIED):
        # A new document: going from "/" to "/#/" draws the lobby again while the test fills
        # in the one drawn before, whose choices are then lost.
        await page.goto("/")
        await start(page, "bot", players, 100)
        await expect(page.locator("main[data-turn=me], main[data-phase=match_over]")).to_have_count(
            1, timeout=15_000
        )
        # At three seats the bots can end a match while the person sits out: another one.
        if not await match_over(page):
            break
    else:
        raise AssertionError(f"the bots ended each of {MATCHES_TRIED} matches on their own")
    offered = await page.evaluate(OFFERED, [*GOING_OUT, *KEEPING_ON])
    pressed = page.locator(offered["first"] or ".hand button.card").first
    box = await pressed.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    # Held down while the page redraws: the browser says its network went away.
    await page.evaluate("dispatchEvent(new Event('offline'))")
    await expect(page.get_by_role("status")).to_contain_text("Reconnecting")
    await page.mouse.up()
    await expect(board(page)).not_to_have_attribute("data-version", offered["version"])
    await page.evaluate("dispatchEvent(new Event('online'))")
    await expect(page.get_by_role("status")).not_to_contain_text("Reconnecting")
