"""Both verifiers, ``gin verify`` and the page's, verify the record of a match ended every way
other than by play (a resignation, a forfeit on time, an adjudication, an abandonment), mid-hand
at 2, 3 and 4 seats (the page also steps through its replay), and refuse it with the ending given
to another side."""

from __future__ import annotations

import json

import pytest

from service.audit.served_record import served_record
from tests.audit.tampering import data, document, entries, rehash, set_data, verdict
from tests.browser.conftest import Pages
from tests.browser.records import LOAD_EACH
from tests.browser.test_replay import browser_verdict
from tests.lifecycle.endings import ENDINGS, ended_mid_hand
from tests.lifecycle.table import Lifecycle


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
async def test_both_verifiers_check_every_ending_other_than_by_play(
    pages: Pages, players: int
) -> None:
    page = await pages.open("/#/replay")
    await page.locator("#record-file").wait_for(state="attached")
    for how in ENDINGS:
        life = Lifecycle()
        match = await life.matches.match(await ended_mid_hand(life, how, players))
        doc = document((await served_record(life.matches, match))[0])
        assert verdict(doc).ok, f"{how}: {verdict(doc).problem}"
        # Verified in the page, and every step of its replay drawn without an error.
        (loaded,) = await page.evaluate(LOAD_EACH, [json.dumps(doc)])
        assert (loaded["verdict"], loaded["errors"]) == ("verified", []), f"{how}: {loaded}"
        assert loaded["steps"] >= len(entries(doc)) - 1, f"{how}: {loaded}"
        # The ending's winner moved to the next side (or given where nobody won).
        ended = next(entry for entry in entries(doc) if entry["type"] == "match_ended")
        event = data(ended)
        sides = len(event["match_scores"])
        moved = 0 if event["winner"] is None else (event["winner"] + 1) % sides
        set_data(ended, {**event, "winner": moved})
        rehash(doc)
        assert not verdict(doc).ok, how
        verified, said = await browser_verdict(page, doc)
        assert not verified, f"{how}: {said}"
