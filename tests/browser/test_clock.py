"""The page shows a clocked match's turn clock, counting down for whichever seat is to move,
in words; when a seat lets its time run out, the page follows the server's default move and
the emptied time bank, and shows the match forfeited on time. Both verifiers check the
timeouts of its record."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import httpx
import pytest
from playwright.async_api import expect

from bench.servers import Server
from tests.api.players import create_table
from tests.audit.tampering import Document, data, find, rehash, set_data, verdict
from tests.browser.conftest import Pages
from tests.browser.table import board
from tests.browser.test_replay import browser_verdict

# Short enough that seats run out of time within the test, long enough to read the clock.
CLOCK = {"turn_seconds": 5, "bank_seconds": 1, "timeouts_to_forfeit": 3}
RUNNING = re.compile(
    r"^Your( opponent's)? time: 0:0[0-5] for this turn, then 0:0[01] of time bank\.$"
)


@pytest.mark.slow
async def test_the_page_counts_the_turn_clock_down_and_follows_the_timeouts(
    pages: Pages, server: Server
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table = await create_table(http, game_target=100, match_target=0, **CLOCK)
        first = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
    assert first["clock"]["seat"] == first["turn"]
    page = await pages.open_seat(table)
    clock = page.locator(".clock")
    await expect(clock).to_be_visible()
    await expect(clock).to_have_attribute("role", "timer")
    await expect(clock).to_have_attribute("data-whose", "me" if first["turn"] == 0 else "them")
    await expect(clock).to_have_text(RUNNING)
    # It counts down by itself, with no event from the server.
    shown = await clock.inner_text()
    await expect(clock).not_to_have_text(shown)
    assert await board(page).get_attribute("data-version") == str(first["version"])

    # The seat that won the cut lets its time run out: the server has its opponent deal, and
    # offers it the upcard with its bank spent. That is due a turn and a bank (6 s) after the
    # clock was set, beyond the default wait of an expectation.
    await expect(board(page)).not_to_have_attribute(
        "data-version", str(first["version"]), timeout=20_000
    )
    await expect(clock).to_contain_text("then 0:00 of time bank", timeout=15_000)
    # Three timeouts in a row forfeit the match; the clock stops.
    await expect(board(page)).to_have_attribute("data-phase", "match_over", timeout=60_000)
    await expect(page.locator(".status")).to_contain_text("ran out of time too often")
    await expect(clock).to_be_hidden()

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        doc: Document = (await http.get(f"{table.path}/record")).json()
    assert verdict(doc).ok
    await page.goto("/#/replay")
    assert (await browser_verdict(page, doc))[0]
    # A timeout a moment before its deadline, every hash recomputed.
    timed_out = find(doc, "timed_out")
    early = datetime.fromisoformat(data(timed_out)["due_at"]) - timedelta(milliseconds=1)
    set_data(timed_out, {**data(timed_out), "at": early.isoformat().replace("+00:00", "Z")})
    rehash(doc)
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    assert not verdict(doc).ok


async def test_a_match_started_with_a_clock_shows_the_players_time(pages: Pages) -> None:
    page = await pages.open("/")
    await page.get_by_label("Clock").select_option(label="30 s a move, 5 min bank")
    await page.locator("[data-start=bot]").click()
    # The bot moves at once; then the clock runs for the person, whose bank is untouched.
    clock = page.locator(".clock[data-whose=me]")
    await expect(clock).to_have_text(
        re.compile(r"^Your time: 0:[0-3]\d for this turn, then 5:00 of time bank\.$")
    )
