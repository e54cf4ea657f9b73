"""The replay viewer: a finished match stepped through in the page, and the record verified in
the browser (WebCrypto, written from docs/audit.md) agreeing with ``gin verify``'s verifier on
the true record and on each way of tampering with it."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Callable

import httpx
import pytest
from playwright.async_api import FilePayload, Page, expect

from bench.servers import Server
from tests.api.players import create_table, play_match
from tests.audit.tampering import Document, data, entries, find, rehash, set_data, verdict
from tests.browser.conftest import Pages

Tamper = Callable[[Document], None]


MATCHES_TRIED = 10


@pytest.fixture(scope="module")
async def record(server: Server) -> Document:
    """A finished match's record, as the service gives it, of at least two deals (a tamper
    edits the second): a first hand can reach the target alone, so then another match."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for attempt in range(MATCHES_TRIED):
            table = await create_table(http, game_target=60, match_target=0)
            await play_match(http, table, random.Random(5 + attempt))
            response = await http.get(f"{table.path}/record")
            assert response.status_code == 200, response.text
            body: Document = response.json()
            if sum(entry["type"] == "dealt" for entry in entries(body)) >= 2:
                return body
    raise AssertionError(f"no match of {MATCHES_TRIED} lasted two deals")


def edit_a_discard(doc: Document) -> None:
    entry = find(doc, "discarded")
    set_data(entry, {**data(entry), "card": "Kd" if data(entry)["card"] != "Kd" else "Qd"})


def swap_a_dealt_card_with_the_stock(doc: Document) -> None:
    entry = [e for e in entries(doc) if e["type"] == "dealt"][1]
    dealt = data(entry)
    dealt["hands"][0][0], dealt["stock"][-1] = dealt["stock"][-1], dealt["hands"][0][0]
    set_data(entry, dealt)
    rehash(doc)


def remove_an_event(doc: Document) -> None:
    del entries(doc)[len(entries(doc)) // 2]


def change_a_card_drawn_from_the_stock(doc: Document) -> None:
    entry = find(doc, "drew", lambda d: d["source"] == "stock")
    drew = data(entry)
    drew["card"] = next(c for c in ("As", "Ad", "Ac") if c != drew["card"])
    set_data(entry, drew)
    rehash(doc)


def reveal_another_seed(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if data(e).get("step") == "deal 1")
    set_data(entry, {**data(entry), "seed": hashlib.sha256(b"never committed").hexdigest()})
    rehash(doc, "fairness_stream")


def change_the_entropy(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    set_data(entry, {"type": "entropy_fixed", "entropy": ["alice", "mallory"]})
    rehash(doc, "fairness_stream")


def change_the_options(doc: Document) -> None:
    doc["options"]["game_target"] += 1


def pass_as_in_progress(doc: Document) -> None:
    doc["status"] = "in_progress"


def change_a_score(doc: Document) -> None:
    entry = find(doc, "scored", lambda d: d["winner"] is not None)
    set_data(entry, {**data(entry), "points": data(entry)["points"] + 2})
    rehash(doc)


def knock_with_a_meld_that_is_none(doc: Document) -> None:
    """The same cards shown, one of a meld swapped with the deadwood (or the knock card)."""
    entry = find(doc, "knocked", lambda d: bool(d["melds"]) and not d["big_gin"])
    knocked = data(entry)
    meld = knocked["melds"][0]
    if knocked["deadwood"]:
        meld[0], knocked["deadwood"][0] = knocked["deadwood"][0], meld[0]
    else:
        meld[0], knocked["card"] = knocked["card"], meld[0]
    set_data(entry, knocked)
    rehash(doc)


def change_a_game_total(doc: Document) -> None:
    entry = find(doc, "game_won")
    won = data(entry)
    won["totals"][won["winner"]] += 5
    set_data(entry, won)
    rehash(doc)


def change_who_deals_the_second_hand(doc: Document) -> None:
    """The other seat deals, its hands swapped so the cards still are the seed's."""
    entry = [e for e in entries(doc) if e["type"] == "dealt"][1]
    dealt = data(entry)
    set_data(entry, {**dealt, "dealer": 1 - dealt["dealer"], "hands": dealt["hands"][::-1]})
    rehash(doc)


TAMPERS: list[Tamper] = [
    edit_a_discard,
    swap_a_dealt_card_with_the_stock,
    remove_an_event,
    change_a_card_drawn_from_the_stock,
    reveal_another_seed,
    change_the_entropy,
    change_the_options,
    pass_as_in_progress,
    change_a_score,
    knock_with_a_meld_that_is_none,
    change_a_game_total,
    change_who_deals_the_second_hand,
]
# Tampers only a re-run of the rules finds, every hash recomputed: the browser names the
# first of them as `gin verify` does.
SAID_ALIKE = {change_a_score}


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
async def test_the_viewer_steps_through_a_finished_match(pages: Pages, record: Document) -> None:
    page = await pages.open(f"/#/replay/{record['match_id']}")
    viewer = page.locator(".viewer")
    last = record["match_stream"]["events"][-1]["version"]
    await expect(page.locator(".verdict")).to_have_attribute("data-verdict", "verified")
    await expect(viewer).to_have_attribute("data-version", str(last))

    await page.locator("[data-step=first]").click()
    await expect(viewer).to_have_attribute("data-version", "1")
    await page.locator("[data-step=forward]").click()
    await expect(viewer).to_have_attribute("data-version", "2")
    await page.keyboard.press("ArrowRight")
    await expect(viewer).to_have_attribute("data-version", "3")
    await page.locator("[data-step=back]").click()
    await expect(viewer).to_have_attribute("data-version", "2")

    hands = await page.locator("#jump-to-hand option[value]:not([value=''])").count()
    assert hands == record["hands_finished"]
    await page.select_option("#jump-to-hand", index=hands)  # the last hand (0 is the prompt)
    await expect(page.locator(".position")).to_contain_text("deals")
    # Both hands are shown, ten cards each, right after a deal.
    for seat in (0, 1):
        await expect(page.locator(f".seat[data-seat='{seat}'] .card")).to_have_count(10)
    await page.locator("[data-step=last]").click()
    final = json.loads(last_of(record, "match_won")["data"])["match_scores"]
    await expect(page.locator("[data-score='0']")).to_contain_text(f"match {final[0]}")
    await expect(page.locator("[data-score='1']")).to_contain_text(f"match {final[1]}")


def last_of(doc: Document, kind: str) -> dict[str, str]:
    return next(e for e in reversed(entries(doc)) if e["type"] == kind)


@pytest.mark.slow
async def test_the_browser_and_gin_verify_agree_on_true_and_tampered_records(
    pages: Pages, record: Document
) -> None:
    page = await pages.open("/#/replay")
    assert verdict(record).ok
    assert (await browser_verdict(page, record))[0]

    for tamper in TAMPERS:
        doc = copy.deepcopy(record)
        tamper(doc)
        in_browser, said = await browser_verdict(page, doc)
        assert not verdict(doc).ok, tamper.__name__
        assert not in_browser, f"{tamper.__name__}: the browser said {said}"
        assert said.startswith("Discrepancy: "), said
        if tamper in SAID_ALIKE:
            assert said == f"Discrepancy: {verdict(doc).problem}"


# Rule options the scores and the deals depend on, each set in a match of its own.
OTHER_RULES: list[dict[str, object]] = [
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
