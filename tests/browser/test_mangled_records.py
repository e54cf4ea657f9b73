"""The browser's verifier on records mangled at random (``tests.audit.mangling``), at 2, 3 and 4
seats, with and without a turn clock: each file loaded into the replay page gets a verdict,
every step of its replay can be drawn, and nothing throws. The records are mangled from a fixed
seed, the same every run, and all of them go through one page, loaded one after another as a
person would load files."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.audit.mangling import clocked_records, mangled, true_records
from tests.browser.conftest import Pages
from tests.browser.records import LOAD_EACH

PER_SIZE = 30
CLOCKED_PER_SIZE = 10
SEED = 25


@pytest.mark.slow
async def test_every_mangled_record_gets_a_verdict_in_the_browser(pages: Pages) -> None:
    rng = random.Random(SEED)
    records = await asyncio.to_thread(true_records)  # they play on event loops of their own
    clocked = await asyncio.to_thread(clocked_records)
    texts = [
        (players, mangled(records[players], rng)) for players in (2, 3, 4) for _ in range(PER_SIZE)
    ] + [
        (players, mangled(clocked[players], rng))
        for players in (2, 3, 4)
        for _ in range(CLOCKED_PER_SIZE)
    ]
    page = await pages.open("/#/replay")
    await page.locator("#record-file").wait_for(state="attached")
    results = await page.evaluate(LOAD_EACH, [text for _, text in texts])
    assert len(results) == len(texts)
    wrong = [
        (players, text[:60], result)
        for (players, text), result in zip(texts, results, strict=True)
        if not _answered(result)
    ]
    assert wrong == [], f"{len(wrong)} of {len(texts)} records: {wrong}"
    # The true records still verify in the same page, after every mangled one.
    again = await page.evaluate(
        LOAD_EACH, [json.dumps(true[p]) for true in (records, clocked) for p in (2, 3, 4)]
    )
    assert [result["verdict"] for result in again] == ["verified"] * 6, again


def _answered(result: dict[str, object]) -> bool:
    """A verdict, said as the page says one, and no error on the way."""
    said = str(result["said"])
    if result["errors"]:
        return False
    if result["verdict"] == "verified":
        return said.startswith("Verified in this browser: ")
    # "the record cannot be read" is the verifier's last resort, for what no check names.
    return (
        result["verdict"] == "discrepancy"
        and said.startswith("Discrepancy: ")
        and "the record cannot be read" not in said
    )
