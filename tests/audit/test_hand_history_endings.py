"""A hand the match ended in is told in words: its history ends with how the match ended
(resigned, forfeited on time, awarded, forfeited or voided by an operator, abandoned) instead
of a score, each timeout is a line of its own, and the record still verifies: at 2, 3 and 4
seats."""

from __future__ import annotations

from typing import get_args

import pytest

from domain.events import EndReason
from service.audit.hand_text import ENDING_WORDS
from service.audit.record_kinds import ONE_HAND, record_kind
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from tests.lifecycle.endings import ended_mid_hand
from tests.lifecycle.table import Lifecycle

# At three and four seats the seat is the match's and the winner a side: seat 0's is side 0,
# and the side a seat concedes to is side 1 at the start of a match.
WORDS = {
    "resigned": "Result: Match resigned by seat 0{of}, won by {side} 1",
    "forfeited_on_time": "Result: Match forfeited on time by seat ",
    "awarded": "Result: Match awarded to seat 0{of} (adjudicated), won by {side} 0 (table 4",
    "forfeited": "Result: Match forfeited by seat 0{of} (adjudicated), won by {side} 1 (table 4",
    "voided": "Result: Match voided (adjudicated), no winner (table 4 closed)",
    "abandoned": "Result: Match abandoned: nobody moved for too long, no winner",
}


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("how", list(WORDS))
async def test_the_history_of_the_hand_a_match_ended_in_says_how_it_ended(
    how: str, seats: int
) -> None:
    life = Lifecycle()
    match_id = await ended_mid_hand(life, how, seats)
    match = await life.matches.match(match_id)
    record, _ = await served_record(life.matches, match)
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()

    kind = record_kind(match)
    text = kind.hand_history(match_id, kind.events(record), record.fairness, 1)

    tables = kind is not ONE_HAND
    of, side = (" of the match", "side") if tables else ("", "seat")
    words = WORDS[how].format(of=of, side=side)
    assert words in text, text
    assert text.rstrip().splitlines()[-1].startswith("Result: Match ")
    if how == "forfeited_on_time":
        assert "ran out of time" in text
        assert "timeout 1 in a row" in text


def test_every_reason_a_match_can_end_for_has_words() -> None:
    assert set(ENDING_WORDS) == set(get_args(EndReason))
