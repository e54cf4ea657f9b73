"""``gin verify`` on clocked matches of every size in which seats spend their banks, time out
and come back (``seat_returned``, made by the seat's own next move), over several hands; and
on such a record with a clock restart that decides nothing, which it answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.audit.service_play import TIMED_OUT, TIMED_PLAY, played_match
from tests.audit.tampering import (
    Document,
    add_a_stamp,
    document,
    entries,
    kinds,
    rehash,
    take_out_a_stamp,
    verdict,
)


@pytest.fixture(scope="module", params=[2, 3, 4])
def timed(request: pytest.FixtureRequest) -> Document:
    return document(played_match(1, seats=request.param, options=TIMED_PLAY, timeouts=TIMED_OUT))


def test_a_match_whose_seats_time_out_and_come_back_verifies(timed: Document) -> None:
    assert any("seat_returned" in kinds(entry) for entry in entries(timed))
    assert verdict(timed).ok, verdict(timed).problem


@pytest.mark.parametrize("players", [3, 4])
def test_a_stamp_that_decides_nothing_is_no_event_of_the_record(
    players: int, tmp_path: Path
) -> None:
    """A table's deadline replaced by a copy of the match's, every hash recomputed: ``gin
    verify`` names the event where the clock's step gives the table's, where it once went
    round the same event for ever (a restart of the clocks that changes nothing accounts for
    no recorded event)."""
    timed = document(played_match(1, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    events = entries(timed)
    table_deadline = ("table_event", "deadline_set")
    at = next(index for index, entry in enumerate(events) if kinds(entry) == table_deadline)
    match_deadline = next(entry for entry in events[at:] if kinds(entry)[0] == "deadline_set")
    events[at] = {**match_deadline, "version": events[at]["version"]}
    rehash(timed)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(timed))
    gin = Path(sys.executable).with_name("gin")
    ran = subprocess.run(
        [gin, "verify", str(path)], capture_output=True, text=True, timeout=30, check=False
    )
    assert ran.returncode == 1, ran.stdout + ran.stderr
    version = events[at]["version"]
    assert f"version {version}: the record has DeadlineSet where the rules give TableEvent" in (
        ran.stdout + ran.stderr
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_with_a_stamp_of_the_clock_taken_out_is_refused(players: int) -> None:
    """Each move of a clocked match is followed by the clock's step; one taken out (the rest
    of the record, hashes included, made to fit) is a discrepancy at the next move."""
    timed = document(played_match(2, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    next_move = take_out_a_stamp(timed)
    answer = verdict(timed)
    assert not answer.ok
    assert answer.problem is not None
    assert f"version {next_move}: " in answer.problem
    assert "comes where the deadline_set of the move before it is due" in answer.problem


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_with_a_stamp_no_move_made_due_is_refused(players: int) -> None:
    """A clock restart recorded twice after a move: the second is no step of the clock (at
    three and four seats it would be the charge before a move that ends the round, and the
    next move does not)."""
    timed = document(played_match(2, seats=players, options=TIMED_PLAY, timeouts=TIMED_OUT))
    copy = add_a_stamp(timed)
    answer = verdict(timed)
    assert not answer.ok
    assert f"version {copy}: a deadline_set no move made due" in str(answer.problem)
