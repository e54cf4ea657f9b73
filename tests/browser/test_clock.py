"""The page shows a clocked match's turn clock, counting down for whichever seat is to move,
in words; when a seat lets its time run out, the page follows the server's default move and
the emptied time bank, and shows the match forfeited on time. Both verifiers check the
timeouts and the forfeit of its record."""

from __future__ import annotations

import copy
import re
from datetime import datetime, timedelta

import httpx
import pytest
from playwright.async_api import expect

from bench.servers import Server
from domain import RuleOptions
from tests.api.players import Table, create_table
from tests.audit.service_play import TIMED_OUT, TIMED_PLAY, play_match
from tests.audit.tampering import (
    Document,
    Entry,
    add_a_stamp,
    data,
    document,
    entries,
    kinds,
    rehash,
    set_data,
    take_out_a_stamp,
    verdict,
)
from tests.browser.conftest import Pages
from tests.browser.table import board
from tests.browser.test_replay import browser_verdict

# Short enough that seats run out of time within the test, long enough to read the clock.
CLOCK = {"turn_seconds": 5, "bank_seconds": 1, "timeouts_to_forfeit": 2}
RUNNING = re.compile(
    r"^Your( opponent's)? time: 0:0[0-5] for this turn, then 0:0[01] of time bank\.$"
)


def on_the_clock(view: Document) -> int:
    """The match seat whose clock the seat's page shows: a two-player match's; with three or
    four players, that of the seat's table or, sitting out, of the table in play."""
    if view["kind"] == "two_players":
        return int(view["clock"]["seat"])
    mine = [table for table in view["tables"] if table["table"] == view["table"]]
    at = (mine or [t for t in view["tables"] if t["view"]["clock"]])[0]
    return int(at["seats"][at["view"]["clock"]["seat"]])


def timeout_of(doc: Document) -> Entry:
    """The record's first timeout: the match's (two seats) or a table's (three or four)."""
    return next(entry for entry in entries(doc) if "timed_out" in kinds(entry))


def early_timeout(doc: Document) -> None:
    """The record's first timeout (a turn's or a no-show's) a moment before its deadline."""
    timed_out = timeout_of(doc)
    event = data(timed_out)
    inner = event.get("event", event)
    early = datetime.fromisoformat(inner["due_at"]) - timedelta(milliseconds=1)
    inner["at"] = early.isoformat().replace("+00:00", "Z")
    set_data(timed_out, event)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_the_page_counts_the_turn_clock_down_and_follows_the_timeouts(
    pages: Pages, server: Server, players: int
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        table = await create_table(http, players, game_target=100, match_target=0, **CLOCK)
        first = (await http.get(f"{table.path}/view", headers=table.headers(0))).json()
    page = await pages.open_seat(table)
    clock = page.locator(".clock")
    await expect(clock).to_be_visible()
    await expect(clock).to_have_attribute("role", "timer")
    whose = "me" if on_the_clock(first) == 0 else "them"
    await expect(clock).to_have_attribute("data-whose", whose)
    await expect(clock).to_have_text(RUNNING)
    # It counts down by itself, with no event from the server.
    shown = await clock.inner_text()
    await expect(clock).not_to_have_text(shown)
    assert await board(page).get_attribute("data-version") == str(first["version"])

    # The seat on the clock lets its time run out: the server makes its default move, and the
    # next seat's turn starts; once that one has timed out too, the clock shows a spent bank.
    # The first is due a turn and a bank (6 s) after the clock was set, beyond the default
    # wait of an expectation.
    await expect(board(page)).not_to_have_attribute(
        "data-version", str(first["version"]), timeout=20_000
    )
    await expect(clock).to_contain_text("then 0:00 of time bank", timeout=15_000)
    # Two timeouts in a row forfeit the match; the clock stops.
    await expect(board(page)).to_have_attribute("data-phase", "match_over", timeout=60_000)
    await expect(page.locator(".status")).to_contain_text("ran out of time too often")
    await expect(clock).to_be_hidden()

    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        doc: Document = (await http.get(f"{table.path}/record")).json()
    assert verdict(doc).ok
    await page.goto("/#/replay")
    verified, said = await browser_verdict(page, doc)
    assert verified, said
    # The forfeit won by another side, every hash recomputed.
    wrong = copy.deepcopy(doc)
    ended = next(entry for entry in entries(wrong) if entry["type"] == "match_ended")
    event = data(ended)
    assert event["reason"] == "forfeited_on_time"
    set_data(ended, {**event, "winner": (event["winner"] + 1) % len(event["match_scores"])})
    rehash(wrong)
    in_browser, said = await browser_verdict(page, wrong)
    assert not in_browser, said
    assert not verdict(wrong).ok
    # A timeout a moment before its deadline, every hash recomputed.
    early_timeout(doc)
    rehash(doc)
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    assert not verdict(doc).ok


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_both_verifiers_follow_the_banks_and_timeouts_from_hand_to_hand(
    pages: Pages, players: int
) -> None:
    doc = document(await play_match(1, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    dealt = [entry for entry in entries(doc) if "dealt" in kinds(entry)]
    assert len(dealt) > 1
    assert any("timed_out" in kinds(entry) for entry in entries(doc))
    page = await pages.open("/#/replay")
    assert verdict(doc).ok, verdict(doc).problem
    verified, said = await browser_verdict(page, doc)
    assert verified, said
    # A later hand's clock starting with a full bank for a seat that spent it before.
    after = entries(doc)[entries(doc).index(dealt[-1]) :]
    banks = next(entry for entry in after if "deadline_set" in kinds(entry))
    event = data(banks)
    inner = event.get("event", event)
    full = TIMED_PLAY.bank_seconds * 1000
    assert inner["banks_ms"] != [full] * len(inner["banks_ms"]), "no bank was spent"
    inner["banks_ms"] = [full] * len(inner["banks_ms"])
    set_data(banks, event)
    rehash(doc)
    assert not verdict(doc).ok
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said


@pytest.mark.parametrize("last", [False, True], ids=["first", "last"])
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_both_verifiers_refuse_a_stamp_no_move_made_due(
    pages: Pages, players: int, last: bool
) -> None:
    """A clocked record with the clock's restart after a draw recorded twice, every hash
    recomputed: its first stamp copied, or its last (at three and four seats the match's
    next deadline, the earliest of the tables' clocks as it was)."""
    doc = document(await play_match(2, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    copy = add_a_stamp(doc, last=last)
    page = await pages.open("/#/replay")
    assert f"version {copy}: " in str(verdict(doc).problem)
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    assert "where no move made one due" in said


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_both_verifiers_refuse_a_move_whose_clock_stamp_was_taken_out(
    pages: Pages, players: int
) -> None:
    """A clocked record with the clock's restart after a draw taken out, every hash
    recomputed: the next move comes where the stamp is due."""
    doc = document(await play_match(2, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    next_move = take_out_a_stamp(doc)
    page = await pages.open("/#/replay")
    answer = verdict(doc)
    assert not answer.ok
    assert f"version {next_move}: " in str(answer.problem)
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    # At four seats the page names the first event the missing stamp shows in: the match's
    # next deadline (out of date for the draw's table) or the next move at that table.
    named = re.search(r"version (\d+): (.*)", said)
    assert named is not None, said
    assert int(named[1]) >= next_move
    assert "DeadlineSet" in named[2], said


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_match_started_with_a_clock_shows_the_players_time(
    pages: Pages, players: int
) -> None:
    page = await pages.open("/")
    await page.get_by_label("Players").select_option(str(players))
    await page.get_by_label("Clock").select_option(label="30 s a move, 5 min bank")
    await page.locator("[data-start=bot]").click()
    # The bots move at once (a whole hand while the person sits out); then the clock runs for
    # the person, whose bank is untouched.
    clock = page.locator(".clock[data-whose=me]")
    await expect(clock).to_have_text(
        re.compile(r"^Your time: 0:[0-3]\d for this turn, then 5:00 of time bank\.$")
    )


@pytest.mark.parametrize(("players", "invited"), [(2, [0, 1]), (3, [0, 1, 2])], ids=str)
async def test_the_page_shows_the_time_every_invited_seat_has_to_join(
    pages: Pages, server: Server, players: int, invited: list[int]
) -> None:
    """Every seat invited: the first to join sees the one deadline they all have, at two
    seats as at three (it names no seat)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        options = {"game_target": 10, "match_target": 0, "join_seconds": 600}
        body = {"players": players, "options": options, "invite_seats": invited}
        created = (await http.post("/matches", json=body)).json()
        code = next(i["invite_code"] for i in created["invites"] if i["seat"] == 0)
        joined = (await http.post("/matches/join", json={"invite_code": code})).json()
    table = Table(created["match_id"], {0: joined["token"]})
    page = await pages.open_seat(table)
    await expect(page.locator(".clock")).to_have_text(
        re.compile(r"^The invited players have (9|10):\d\d to join\.$")
    )


def sooner_join_deadline(doc: Document) -> None:
    """The join deadline a minute sooner than ``join_seconds`` after it was set (and the
    timeout's ``due_at`` with it)."""
    for entry in entries(doc):
        event = data(entry)
        if event.get("kind") == "join" or event["type"] == "timed_out":
            sooner = datetime.fromisoformat(event["due_at"]) - timedelta(minutes=1)
            set_data(entry, {**event, "due_at": sooner.isoformat().replace("+00:00", "Z")})


def no_show_without_a_timeout(doc: Document) -> None:
    entries(doc).remove(timeout_of(doc))


@pytest.mark.parametrize(
    ("players", "invited"), [(2, (1,)), (2, (0, 1)), (3, (1,)), (4, (1,))], ids=str
)
async def test_both_verifiers_check_a_no_show(
    pages: Pages, players: int, invited: tuple[int, ...]
) -> None:
    """Invited seats that never joined: the join deadline (one for both seats of a
    two-player match both invited, naming neither), the lowest absent seat's timeout at or
    after it, and the match ended as a no-show verify in both; each of three tampers, every
    hash recomputed, is refused by both."""
    options = RuleOptions(join_seconds=60)
    doc = document(await play_match(1, seats=players, options=options, no_show=invited))
    types = [kinds(entry)[0] for entry in entries(doc)]
    assert types.index("timed_out") + 1 == types.index("match_ended")
    page = await pages.open("/#/replay")
    assert verdict(doc).ok, verdict(doc).problem
    verified, said = await browser_verdict(page, doc)
    assert verified, said
    for tamper in (early_timeout, sooner_join_deadline, no_show_without_a_timeout):
        wrong = copy.deepcopy(doc)
        tamper(wrong)
        rehash(wrong)
        assert not verdict(wrong).ok, tamper.__name__
        in_browser, said = await browser_verdict(page, wrong)
        assert not in_browser, f"{tamper.__name__}: {said}"


@pytest.mark.parametrize("players", [3, 4])
async def test_both_verifiers_check_the_match_deadline_of_tables(
    pages: Pages, players: int
) -> None:
    """A match of tables records its next deadline, the earliest of its tables' clocks, each
    time it changes: one given to another seat, or taken out (every hash recomputed), is
    refused by both verifiers."""
    true = document(await play_match(1, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    page = await pages.open("/#/replay")
    later = [
        index
        for index, entry in enumerate(entries(true))
        if kinds(entry) == ("deadline_set", None) and data(entry)["seat"] is not None
    ][3]  # one set during play, after a move

    doc = copy.deepcopy(true)
    deadline = entries(doc)[later]
    event = data(deadline)
    set_data(deadline, {**event, "seat": (event["seat"] + 1) % players})
    rehash(doc)
    assert not verdict(doc).ok
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    assert f"version {deadline['version']}: DeadlineSet says seat" in said

    doc = copy.deepcopy(true)
    del entries(doc)[later]
    rehash(doc)
    assert not verdict(doc).ok
    in_browser, said = await browser_verdict(page, doc)
    assert not in_browser, said
    assert f"version {later + 1}: " in said
    assert "where the rules give DeadlineSet, the match's next deadline" in said
