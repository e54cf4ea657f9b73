"""The replay viewer on three- and four-player records: a finished match from the service,
stepped through table by table, verified in the browser; and the same record tampered with,
flagged by the browser and by ``gin verify``'s verifier alike (a hand's or a round's score
changed with every hash recomputed too: both re-run the rules)."""

from __future__ import annotations

import copy
import json
import random

import httpx
import pytest
from playwright.async_api import expect

from bench.servers import Server
from tests.api.players import Json, bearer, choose
from tests.audit import rules_version_records
from tests.audit.rules_version_records import with_rules_version
from tests.audit.tampering import Document, data, entries, rehash, set_data, verdict
from tests.browser.conftest import Pages
from tests.browser.test_replay import (
    Tamper,
    browser_verdict,
    change_the_options,
    pass_as_in_progress,
    remove_an_event,
    reveal_another_seed,
)

ROUNDS = 2  # a record of two rounds at least: the second round's deals follow the first's


async def played_record(server: Server, players: int, seed: int) -> Document:
    """A finished match of ``players``, the person's seat played by random legal moves and the
    others by the server's bots; its record as the service gives it."""
    rng = random.Random(seed)
    bots = [None, *["random"] * (players - 1)]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for _ in range(10):
            created = (
                await http.post(
                    "/matches",
                    json={
                        "players": players,
                        "bots": bots,
                        "options": {"game_target": 60, "match_target": 0},
                    },
                )
            ).json()
            path, token = f"/matches/{created['match_id']}", created["seats"][0]["token"]
            view: Json = (await http.get(f"{path}/view", headers=bearer(token))).json()
            while view["phase"] != "match_over":
                if view["legal_actions"]:
                    sent = await http.post(
                        f"{path}/commands", json=choose(view, rng), headers=bearer(token)
                    )
                    assert sent.status_code == 200, sent.text
                view = (await http.get(f"{path}/view", headers=bearer(token))).json()
            record: Document = (await http.get(f"{path}/record")).json()
            if sum(e["type"] == "round_started" for e in entries(record)) >= ROUNDS:
                return record
    raise AssertionError(f"no {players}-player match lasted {ROUNDS} rounds")


@pytest.fixture(scope="module")
async def records(server: Server) -> dict[int, Document]:
    return {players: await played_record(server, players, players) for players in (3, 4)}


def inner(entry: Document) -> Document:
    event: Document = data(entry)["event"]
    return event


def table_events(doc: Document, kind: str) -> list[Document]:
    return [e for e in entries(doc) if e["type"] == "table_event" and inner(e)["type"] == kind]


def edit_a_discard(doc: Document) -> None:
    entry = table_events(doc, "discarded")[0]
    wrapped = data(entry)
    wrapped["event"]["card"] = "Kd" if wrapped["event"]["card"] != "Kd" else "Qd"
    set_data(entry, wrapped)


def swap_a_dealt_card_with_the_stock(doc: Document) -> None:
    """At the last deal (the second table's in the four-player game), chains recomputed."""
    entry = table_events(doc, "dealt")[-1]
    wrapped = data(entry)
    dealt = wrapped["event"]
    dealt["hands"][0][0], dealt["stock"][-1] = dealt["stock"][-1], dealt["hands"][0][0]
    set_data(entry, wrapped)
    rehash(doc)


def change_a_card_drawn_from_the_stock(doc: Document) -> None:
    entry = next(e for e in table_events(doc, "drew") if inner(e)["source"] == "stock")
    wrapped = data(entry)
    wrapped["event"]["card"] = next(c for c in ("As", "Ad", "Ac") if c != wrapped["event"]["card"])
    set_data(entry, wrapped)
    rehash(doc)


def change_the_cut(doc: Document) -> None:
    entry = next(e for e in entries(doc) if e["type"] == "seats_cut")
    cut = data(entry)
    cut["dealer"] = (cut["dealer"] + 1) % len(cut["rounds"][0])
    set_data(entry, cut)
    rehash(doc)


def give_entropy(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    seats = len(data(entry)["entropy"])
    set_data(entry, {"type": "entropy_fixed", "entropy": ["mallory"] * seats})
    rehash(doc, "fairness_stream")


def change_a_hand_score(doc: Document) -> None:
    entry = next(e for e in table_events(doc, "scored") if inner(e)["winner"] is not None)
    wrapped = data(entry)
    wrapped["event"]["points"] += 2
    set_data(entry, wrapped)
    rehash(doc)


def change_a_round_score(doc: Document) -> None:
    entry = next(
        e for e in entries(doc) if e["type"] == "round_scored" and data(e)["winner"] is not None
    )
    set_data(entry, {**data(entry), "net": data(entry)["net"] + 5})
    rehash(doc)


def play_a_card_not_held(doc: Document) -> None:
    """A discard of a card from the other hand at its table, every hash recomputed."""
    entry = table_events(doc, "discarded")[0]
    wrapped = data(entry)
    table = data(entry)["table"]
    dealt = inner(next(e for e in table_events(doc, "dealt") if data(e)["table"] == table))
    wrapped["event"]["card"] = dealt["hands"][1 - wrapped["event"]["seat"]][0]
    set_data(entry, wrapped)
    rehash(doc)


TAMPERS: list[Tamper] = [
    edit_a_discard,
    swap_a_dealt_card_with_the_stock,
    change_a_card_drawn_from_the_stock,
    change_the_cut,
    reveal_another_seed,
    give_entropy,
    remove_an_event,
    change_the_options,
    pass_as_in_progress,
    change_a_hand_score,
    change_a_round_score,
    play_a_card_not_held,
]


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
async def test_the_viewer_steps_through_every_table(
    pages: Pages, records: dict[int, Document], players: int
) -> None:
    record = records[players]
    page = await pages.open(f"/#/replay/{record['match_id']}")
    viewer = page.locator(".viewer")
    last = entries(record)[-1]
    await expect(page.locator(".verdict")).to_have_attribute("data-verdict", "verified")
    await expect(page.locator(".verdict")).to_contain_text(f"{players} players")
    await expect(viewer).to_have_attribute("data-version", str(last["version"]))
    final = data(last)
    assert final["type"] == "format_match_won"
    for side, score in enumerate(final["match_scores"]):
        await expect(page.locator(f"[data-score='{side}']")).to_contain_text(f"match {score}")

    rounds = sum(e["type"] == "round_started" for e in entries(record))
    jumps = page.locator("#jump-to-hand option[value]:not([value=''])")
    await expect(jumps).to_have_count(rounds)
    await page.select_option("#jump-to-hand", index=2)  # round 2 (0 is the prompt)
    await expect(page.locator(".position")).to_contain_text("Round 2:")
    await page.keyboard.press("ArrowRight")
    await expect(page.locator(".position")).to_contain_text("Table 0: ")
    # Every table of the round, both of its seats' hands dealt: ten cards each.
    tables = page.locator(".replay-table")
    await expect(tables).to_have_count(1 if players == 3 else 2)
    await expect(tables.first.locator(".seat")).to_have_count(2)
    await expect(tables.first.locator(".seat").first.locator(".card")).to_have_count(10)


@pytest.mark.slow
async def test_the_browser_and_gin_verify_flag_the_same_tampered_records(
    pages: Pages, records: dict[int, Document]
) -> None:
    page = await pages.open("/#/replay")
    for players, record in records.items():
        assert verdict(record).ok, players
        in_browser, said = await browser_verdict(page, record)
        assert in_browser, f"{players} players: the browser said {said}"
        for tamper in TAMPERS:
            doc = copy.deepcopy(record)
            tamper(doc)
            assert not verdict(doc).ok, (players, tamper.__name__)
            in_browser, said = await browser_verdict(page, doc)
            assert not in_browser, f"{players} players, {tamper.__name__}: the browser said {said}"
            assert said.startswith("Discrepancy: "), said
        assert json.dumps(record) == json.dumps(records[players])  # each tamper had its copy


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
