"""The rules of a match chosen by its seats (``domain.match_rules``): at every table size a new
match waits for its cut, then its deals, then the seats it says it waits on, and a bot at
such a seat decides on its own table's view a move the match accepts for that seat."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from domain import RuleOptions
from domain.commands import Resign
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


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_seeds_of_a_round_are_revealed_once_every_hand_dealt_before_them_is_over(
    seats: int,
) -> None:
    """``seeds``: how far a match's seeds have gone, with the hands of a round dealt at once
    (the fairness records due follow from it)."""
    rules, rng = rules_for(seats), random.Random(seats)
    state = rules.initial()
    state = rules.fold(rules.decide(state, rules.start(RuleOptions(), seats)), state)
    assert rules.seeds(state) == (False, 0, 0, False, 1)
    state = rules.fold(rules.decide(state, rules.cut(rng.randbytes(32).hex())), state)
    deals = rules.tables_per_round
    while rules.seeds(state).deals < deals:
        if rules.system_step(state) == "deal":
            step = rules.decide(state, rules.deal(rng.randbytes(32).hex()))
        else:  # the two-player cut's winner chooses who deals
            seat = next(seat for seat in range(seats) if rules.awaits(state, seat))
            step = rules.decide(state, rules.legal_actions(state, seat)[0])
        state = rules.fold(step, state)
    # Every hand of the first round dealt, none over: no deal's seed may be shown yet.
    assert rules.seeds(state) == (True, deals, 0, False, deals)
    # A resignation ends the match mid-round: every seed dealt may be shown.
    waiting = next(seat for seat in range(seats) if rules.awaits(state, seat))
    state = rules.fold(rules.decide(state, rules.restamp(state, NOW)), state)
    state = rules.fold(rules.decided(state, Resign(seat=waiting), waiting, NOW), state)
    assert rules.over(state)
    assert rules.seeds(state) == (True, deals, deals, True, deals)
    assert rules.turns(state) == ()
    assert rules.winner(state) is not None


def played(seats: int, seed: int, steps: int = 4000) -> Iterator[Any]:
    """Every state of a match of ``seats`` played through its rules by bots, which of the
    seats waited on moves first chosen at random (so either table of four may finish first)."""
    rules, rng = rules_for(seats), random.Random(seed)
    state = rules.initial()
    state = rules.fold(rules.decide(state, rules.start(RuleOptions(), seats)), state)
    bot = bot_for("simple")
    for _ in range(steps):
        due = rules.system_step(state)
        if due is not None:
            seed_hex = rng.randbytes(32).hex()
            step = rules.cut(seed_hex) if due == "cut" else rules.deal(seed_hex)
            state = rules.fold(rules.decide(state, step), state)
        elif rules.over(state):
            return
        else:
            seat = rng.choice([seat for seat in range(seats) if rules.awaits(state, seat)])
            command = as_seat(bot.choose(rules.bot_view(state, seat)), seat)
            state = rules.fold(rules.decided(state, command, seat, NOW), state)
        yield state


def _hands_in_play(seats: int, state: Any) -> list[bool]:
    """Whether each hand of the round being played is over (two seats: the one hand)."""
    if seats == 2:
        return [state.hand_over] if state.deals else []
    return [table.over for table in state.tables if table.dealt]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_seeds_of_earlier_rounds_stay_revealed_while_the_next_round_is_played(
    seats: int,
) -> None:
    """A seat learns the deck of every hand before the round in play (its seed is in the
    fairness records), however many rounds the match has had, and nothing of the hands in
    play."""
    rules = rules_for(seats)
    seen = 0
    for state in played(seats, seed=seats):
        progress = rules.seeds(state)
        hands = _hands_in_play(seats, state)
        if progress.match_over or len(hands) < rules.tables_per_round or any(hands):
            continue
        if progress.deals > rules.tables_per_round:  # a round after the first
            assert progress.revealed == progress.deals - rules.tables_per_round
            seen += 1
    assert seen > 0


def test_at_four_seats_the_first_table_s_seed_is_revealed_once_its_hand_ends() -> None:
    """docs/rules.md: in the four-player game the second table's seed waits for the first
    table's hand (it would give the first table's deck while that hand is in play), and the
    first table's waits for nothing more than its own hand."""
    rules = rules_for(4)
    first_over = second_over = 0
    for state in played(4, seed=4):
        progress = rules.seeds(state)
        hands = _hands_in_play(4, state)
        if progress.match_over or len(hands) < 2:
            continue
        if hands == [True, False]:  # the first table's hand over: its seed only
            assert progress.revealed == progress.deals - 1
            first_over += 1
        elif hands == [False, True]:  # the second's over: it waits for the first
            assert progress.revealed == progress.deals - 2
            second_over += 1
    assert first_over > 0
    assert second_over > 0
