"""The rules of a match chosen by its seats (``domain.match_rules``): at every table size a new
match waits for its cut, then its deals, then the seats it says it waits on, and a bot at
such a seat decides on its own table's view a move the match accepts for that seat."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from domain import RuleOptions
from domain.match_rules import TWO_SEATS, as_seat, rules_for
from service.bots import bot_for

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_two_seats_have_the_two_player_rules_and_three_and_four_the_tables() -> None:
    assert rules_for(2) is TWO_SEATS
    assert rules_for(3).decide is rules_for(4).decide is not TWO_SEATS.decide
    assert [rules_for(seats).seats for seats in (2, 3, 4)] == [2, 3, 4]
    # Hands dealt at once, each with its seed: one table, one table, two tables a round.
    assert [rules_for(seats).tables_per_round for seats in (2, 3, 4)] == [1, 1, 2]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_match_of_every_size_is_cut_dealt_and_played_through_its_rules(seats: int) -> None:
    rules, rng = rules_for(seats), random.Random(seats)
    state = rules.initial()
    state = rules.fold(rules.decide(state, rules.start(RuleOptions(), seats)), state)
    assert rules.system_step(state) == "cut"
    bot = bot_for("simple")
    for _ in range(200):
        due = rules.system_step(state)
        if due is not None:
            seed = rng.randbytes(32).hex()
            step = rules.cut(seed) if due == "cut" else rules.deal(seed)
            state = rules.fold(rules.decide(state, step), state)
            continue
        if rules.over(state):
            break
        waiting = [seat for seat in range(seats) if rules.awaits(state, seat)]
        assert waiting, "a match in play waits on a seat"
        assert all(rules.legal_actions(state, seat) for seat in waiting)
        seat = waiting[0]
        command = as_seat(bot.choose(rules.bot_view(state, seat)), seat)
        state = rules.fold(rules.decided(state, command, seat, NOW), state)
    assert rules.deadline(state) is None  # no clock without turn_seconds
