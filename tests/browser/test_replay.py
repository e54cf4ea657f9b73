"""The replay viewer at every table size: a finished match stepped through in the page, table
by table, and the record verified in the browser (WebCrypto, written from docs/audit.md)
agreeing with ``gin verify``'s verifier on the true record and on each way of tampering with
it (a hand's or a round's score changed with every hash recomputed too: both re-run the
rules)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import httpx
import pytest
from playwright.async_api import FilePayload, Page, expect

from bench.servers import Server
from tests.api.players import create_table, play_match
from tests.audit import rules_version_records
from tests.audit.rules_version_records import with_rules_version
from tests.audit.tampering import Document, data, entries, verdict
from tests.browser.conftest import Pages
from tests.browser.records import (
    SAID_ALIKE,
    TAMPERS,
    change_a_score,
    finished_record,
    record_with_a_layoff,
)

SIZES = [2, 3, 4]


@pytest.fixture(scope="module")
async def records(server: Server) -> dict[int, Document]:
    return {players: await finished_record(server, players) for players in SIZES}


async def browser_verdict(page: Page, doc: Document) -> tuple[bool, str]:
    """Load ``doc`` as a file into the viewer; whether the page verified it, and what it said."""
    payload: FilePayload = {
        "name": "record.json",
        "mimeType": "application/json",
        "buffer": json.dumps(doc).encode(),
    }
    # The verdict on the file loaded before goes first, so the one read is this file's.
    await page.locator(".viewer").evaluate("viewer => viewer.replaceChildren()")
    await page.set_input_files("#record-file", files=[payload])
    said = page.locator(".verdict[data-verdict]")
    await expect(said).to_have_count(1)
    return await said.get_attribute("data-verdict") == "verified", await said.inner_text()


@pytest.mark.slow
@pytest.mark.parametrize("players", SIZES)
async def test_the_viewer_steps_through_a_finished_match(
    pages: Pages, records: dict[int, Document], players: int
) -> None:
    record = records[players]
    page = await pages.open(f"/#/replay/{record['match_id']}")
    viewer = page.locator(".viewer")
    last = entries(record)[-1]["version"]
    await expect(page.locator(".verdict")).to_have_attribute("data-verdict", "verified")
    await expect(page.locator(".verdict")).to_contain_text(
        f"{players} players:" if players > 2 else "every move, score and bonus"
    )
    await expect(viewer).to_have_attribute("data-version", str(last))
    final = data(next(e for e in reversed(entries(record)) if "match_scores" in data(e)))
    for side, score in enumerate(final["match_scores"]):
        await expect(page.locator(f"[data-score='{side}']")).to_contain_text(f"match {score}")

    await page.locator("[data-step=first]").click()
    await expect(viewer).to_have_attribute("data-version", "1")
    await page.locator("[data-step=forward]").click()
    await expect(viewer).to_have_attribute("data-version", "2")
    await page.keyboard.press("ArrowRight")
    await expect(viewer).to_have_attribute("data-version", "3")
    await page.locator("[data-step=back]").click()
    await expect(viewer).to_have_attribute("data-version", "2")

    # A jump to each hand dealt (two players) or each round (three and four).
    starts = sum(e["type"] in ("dealt", "round_started") for e in entries(record))
    jumps = page.locator("#jump-to-hand option[value]:not([value=''])")
    await expect(jumps).to_have_count(starts)
    await page.select_option("#jump-to-hand", index=2)  # the second (0 is the prompt)
    if players > 2:
        await expect(page.locator(".position")).to_contain_text("Round 2:")
        await page.keyboard.press("ArrowRight")
        await expect(page.locator(".position")).to_contain_text("Table 0: ")
    await expect(page.locator(".position")).to_contain_text("deals")
    # Every table of the hand, both of its seats' hands dealt: ten cards each.
    tables = page.locator(".replay-table")
    await expect(tables).to_have_count(2 if players == 4 else 1)
    await expect(tables.first.locator(".seat")).to_have_count(2)
    for seat in range(2):
        await expect(tables.first.locator(".seat").nth(seat).locator(".card")).to_have_count(10)


@pytest.mark.slow
@pytest.mark.parametrize("players", SIZES)
async def test_the_browser_and_gin_verify_agree_on_true_and_tampered_records(
    pages: Pages, records: dict[int, Document], players: int
) -> None:
    record = records[players]
    page = await pages.open("/#/replay")
    assert verdict(record).ok
    in_browser, said = await browser_verdict(page, record)
    assert in_browser, f"the browser said {said}"

    for tamper in TAMPERS[players]:
        doc = copy.deepcopy(record)
        tamper(doc)
        in_browser, said = await browser_verdict(page, doc)
        in_python = verdict(doc)
        assert not in_python.ok, tamper.__name__
        assert not in_browser, f"{tamper.__name__}: the browser said {said}"
        assert said.startswith("Discrepancy: "), said
        if tamper in SAID_ALIKE:
            assert said == f"Discrepancy: {in_python.problem}"
    assert json.dumps(record) == json.dumps(records[players])  # each tamper had its copy


@pytest.mark.slow
@pytest.mark.parametrize("players", SIZES)
async def test_laid_off_cards_are_not_shown_back_in_the_defenders_hand(
    pages: Pages, server: Server, players: int
) -> None:
    """At the step a hand is scored after a layoff, every seat's hand on screen is the one
    the server's replay gives: the cards laid off lie on the knocker's melds, not in the
    defender's hand, so the deadwood shown is the deadwood scored."""
    record, version = await record_with_a_layoff(server, players)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        replayed = (await http.get(f"/matches/{record['match_id']}/replay?at={version}")).json()
    tables = [replayed] if players == 2 else replayed["tables"]
    expected = {
        seat: sorted(hand)
        for table in tables
        for seat, hand in zip(table.get("seats", [0, 1]), table["hands"], strict=True)
    }

    page = await pages.open(f"/#/replay/{record['match_id']}")
    viewer = page.locator(".viewer")
    await expect(page.locator(".verdict")).to_have_attribute("data-verdict", "verified")
    # The hand's start, by the jump list, then event by event to the score.
    starts = [
        int(v)
        for v in await page.locator("#jump-to-hand option[value]").evaluate_all(
            "options => options.map(o => o.value).filter(Boolean)"
        )
    ]
    await page.select_option("#jump-to-hand", str(max(i for i in starts if i < version)))
    while int(await viewer.get_attribute("data-version") or 0) < version:
        await page.locator("[data-step=forward]").click()
    await expect(viewer).to_have_attribute("data-version", str(version))
    shown = {}
    for seat in expected:
        cards = page.locator(f".replay-table .seat[data-seat='{seat}'] .card")
        shown[seat] = sorted(await cards.evaluate_all("cards => cards.map(c => c.dataset.card)"))
    assert shown == expected


# Rule options the scores and the deals depend on, each set in a match of its own.
OTHER_RULES: list[dict[str, Any]] = [
    {"oklahoma": True, "game_target": 40, "match_target": 0},
    {
        "oklahoma": True,
        "oklahoma_spades_double": False,
        "knock_limit": 3,
        "game_target": 40,
        "match_target": 0,
    },
    {
        "undercut_on_tie": False,
        "next_dealer": "alternate",
        "knock_limit": 5,
        "gin_bonus": 7,
        "big_gin_bonus": 9,
        "undercut_bonus": 3,
        "game_target": 30,
        "game_bonus": 11,
        "line_bonus": 40,
        "shutout_bonus": 13,
        "match_target": 150,
    },
    {"knock_limit": 0, "big_gin_bonus": 0, "game_target": 30, "match_target": 0},
]


@pytest.mark.slow
async def test_the_verifiers_agree_under_other_rule_options(pages: Pages, server: Server) -> None:
    page = await pages.open("/#/replay")
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for number, options in enumerate(OTHER_RULES):
            table = await create_table(http, **options)
            await play_match(http, table, random.Random(number))
            doc: Document = (await http.get(f"{table.path}/record")).json()
            assert verdict(doc).ok, options
            in_browser, said = await browser_verdict(page, doc)
            assert in_browser, f"{options}: the browser said {said}"
            change_a_score(doc)
            in_browser, said = await browser_verdict(page, doc)
            assert not in_browser, options
            assert said == f"Discrepancy: {verdict(doc).problem}", options


@pytest.mark.slow
async def test_the_browser_scores_rounds_by_the_recorded_rules_version(pages: Pages) -> None:
    """A three-player hand won for 0 points: a hand won in a match of the current rules, won by
    nobody in a record made before rules versions; each verifies in the browser as in
    ``gin verify``, and with its version changed (every hash recomputed) fails in both."""
    page = await pages.open("/#/replay")
    current = await rules_version_records.current_record()
    unversioned = rules_version_records.unversioned_record()
    for record, other_version in ((current, None), (unversioned, 2)):
        assert verdict(record).ok
        in_browser, said = await browser_verdict(page, record)
        assert in_browser, f"the browser said {said}"
        changed = with_rules_version(record, other_version)
        assert not verdict(changed).ok
        in_browser, said = await browser_verdict(page, changed)
        assert not in_browser, f"the browser said {said}"
        assert "RoundScored says winner" in said, said
