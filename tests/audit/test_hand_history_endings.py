"""A hand the match ended in is told in words: its history ends with how the match ended
(resigned, forfeited on time, awarded, forfeited or voided by an operator, abandoned) instead
of a score, each timeout is a line of its own, and the record still verifies."""

from __future__ import annotations

from typing import get_args

import pytest

from domain import decide
from domain.commands import Adjudicate, Resign, Verdict
from domain.events import EndReason
from service.audit.hand_history import hand_history
from service.audit.hand_text import ENDING_WORDS
from service.audit.record_kinds import ONE_HAND
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.matches.use_cases import CommandRequest
from tests.lifecycle.table import ABANDON_AFTER, Lifecycle

VERDICTS: dict[str, Verdict] = {"awarded": "award", "forfeited": "forfeit", "voided": "void"}


async def ended_mid_hand(life: Lifecycle, how: str) -> str:
    """A clocked match whose first hand is dealt, ended ``how``; its id."""
    created = await life.started()
    match_id, tokens = created.match_id, created.tokens
    loaded = await life.load(match_id)
    match = await life.matches.match(match_id)
    if how == "resigned":
        seated = await life.matches.authenticate(match_id, tokens[0])
        await life.matches.handle(seated.match, 0, CommandRequest(command=Resign(seat=0)))
    elif how == "forfeited_on_time":
        while (await life.load(match_id)).state.ending is None:
            await life.past_deadline(match_id)
            assert await life.timer.fire_due() == 1
    elif how == "abandoned":
        life.clock.advance(ABANDON_AFTER)
        assert await life.abandonment.abandon_idle() == 1
    else:
        verdict = VERDICTS[how]
        seat = None if verdict == "void" else 0
        command = Adjudicate(verdict=verdict, seat=seat, reason="table 4 closed")
        events = decide(loaded.state, command)
        await life.matches.append_decided(match, loaded, events, now=life.clock.now)
    return match_id


WORDS = {
    "resigned": "Result: Match resigned by seat 0, won by seat 1",
    "forfeited_on_time": "Result: Match forfeited on time by seat ",
    "awarded": "Result: Match awarded to seat 0 (adjudicated), won by seat 0 (table 4 closed)",
    "forfeited": "Result: Match forfeited by seat 0 (adjudicated), won by seat 1 (table 4 closed)",
    "voided": "Result: Match voided (adjudicated), no winner (table 4 closed)",
    "abandoned": "Result: Match abandoned: nobody moved for too long, no winner",
}


@pytest.mark.parametrize("how", list(WORDS))
async def test_the_history_of_the_hand_a_match_ended_in_says_how_it_ended(how: str) -> None:
    life = Lifecycle()
    match_id = await ended_mid_hand(life, how)
    record, _ = await served_record(life.matches, await life.matches.match(match_id))
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()

    text = hand_history(match_id, ONE_HAND.events(record), record.fairness, 1)

    assert WORDS[how] in text, text
    assert text.rstrip().splitlines()[-1].startswith("Result: Match ")
    if how == "forfeited_on_time":
        assert "ran out of time" in text
        assert "timeout 1 in a row" in text


def test_every_reason_a_match_can_end_for_has_words() -> None:
    assert set(ENDING_WORDS) == set(get_args(EndReason))
