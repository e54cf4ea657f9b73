"""``gin verify`` on records mangled at random, at 2, 3 and 4 seats, with and without a turn clock:
it answers every one with a verdict, never an exception, and it fails every record whose content
is no longer the true record's. A record mangled only where the verifier holds it to nothing
(the seats' accounts, how many events were left out) or mangled back to what it was may verify."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from domain.events import Discarded, Scored
from domain.tables import TableEvent, decode_tables_event
from service.audit.event_diff import first_difference
from service.audit.verify import Verdict, verify_document
from tests.audit.mangling import chains, clocked_records, content, mangled, true_records
from tests.audit.tampering import Document

# The verifier's last resort for what no check of its own names: never reached by a record.
UNCHECKED = "the record cannot be checked"


@functools.cache
def records() -> dict[int, Document]:
    return true_records()


@functools.cache
def clocked() -> dict[int, Document]:
    return clocked_records()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_true_records_verify(players: int) -> None:
    verdict = verify_document(json.dumps(records()[players]))
    assert verdict.ok, verdict.render()


@pytest.mark.parametrize("clock", [False, True], ids=["untimed", "clocked"])
@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=150, derandomize=True)  # the same records every run
@given(rng=st.randoms(use_true_random=False))
def test_every_mangled_record_gets_a_verdict_and_a_changed_one_fails(
    players: int, clock: bool, rng: random.Random
) -> None:
    """On a turn clock, a stamp taken out, added, moved or edited is a change too."""
    doc = (clocked() if clock else records())[players]
    true = json.dumps(doc)
    text = mangled(doc, rng)
    verdict = verify_document(text)
    assert isinstance(verdict, Verdict)
    assert not (verdict.problem or "").startswith(UNCHECKED), verdict.problem
    if content(text) != content(true):
        assert not verdict.ok, "a record whose content changed verified"
    elif chains(text) == chains(true):
        assert verdict.ok, verdict.render()


@pytest.mark.parametrize("players", [3, 4])
def test_a_table_event_wrapping_another_event_is_named_not_compared(players: int) -> None:
    """The rules give one event at a table and the record has another there: that is the
    difference, said as such (no field of one is read from the other)."""
    events = [
        decode_tables_event(entry["data"]) for entry in records()[players]["match_stream"]["events"]
    ]
    table_events = [event for event in events if isinstance(event, TableEvent)]
    scored = next(event for event in table_events if isinstance(event.event, Scored))
    discarded = next(
        event
        for event in table_events
        if isinstance(event.event, Discarded) and event.seats == scored.seats
    )
    assert first_difference([(9, scored)], [discarded], 8) == (
        f"version 9: at table {scored.table}, the record has Scored where the rules give Discarded"
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gin_verify_answers_a_record_cut_short_or_out_of_range(
    players: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(records()[players])
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    assert main(["verify", str(cut)]) == 1
    assert "DISCREPANCY: " in capsys.readouterr().out
    doc = json.loads(text)
    doc["options"]["game_target"] = 0  # options the rules refuse
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps(doc))
    assert main(["verify", str(refused)]) == 1
    assert "DISCREPANCY: " in capsys.readouterr().out
