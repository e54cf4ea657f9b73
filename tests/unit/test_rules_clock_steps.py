"""The clock's step a match's rules ask for once something happened (``MatchRules.clock_step``),
at 2, 3 and 4 seats: docs/rules.md "Join deadlines, no-shows, abandonment and adjudication"
(one join deadline while an invited seat is missing, gone once the players are in) and
"Resigning, clocks and forfeits" (the turn clocks restarted where something happened; no
clock at all without ``turn_seconds`` or ``join_seconds``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain.commands import AwaitJoin, Knock, PassUpcard, StampTime
from domain.events import DeadlineSet
from domain.match_rules import MatchRules, rules_for
from domain.options import RuleOptions
from domain.tables import TableEvent, decide_tables
from domain.tables.commands import StampClocks
from domain.tables.events import Players, RoundScored
from tests.unit.format_helpers import cut_seed, format_match
from tests.unit.helpers import KNOCK_CARD

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
NOW = T0 + timedelta(seconds=5)
JOIN = RuleOptions(join_seconds=600)
TURN = RuleOptions(turn_seconds=10, bank_seconds=30)
UNCLOCKED = RuleOptions()
EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])


class Match:
    """A match driven through its rules alone, as the service drives it."""

    def __init__(self, seats: int, options: RuleOptions) -> None:
        self.seats = seats
        self.rules: MatchRules[Any, Any] = rules_for(seats)
        self.state = self.rules.initial()
        self.made: list[Any] = self.apply(self.rules.start(options, seats))

    def apply(self, command: Any) -> list[Any]:
        made = self.rules.decide(self.state, command)
        self.state = self.rules.fold(made, self.state)
        return made

    def step(self, made: Sequence[Any], waiting: Sequence[int] = ()) -> Any | None:
        return self.rules.clock_step(self.state, made, NOW, waiting)

    def cut(self) -> list[Any]:
        assert self.rules.system_step(self.state) == "cut"
        return self.apply(self.rules.cut(cut_seed(self.seats, 0) if self.seats > 2 else "00"))

    def deal(self) -> list[Any]:
        assert self.rules.system_step(self.state) == "deal"
        return self.apply(self.rules.deal("11" * 32))


def awaiting(seats: int) -> Match:
    match = Match(seats, JOIN)
    match.apply(AwaitJoin(seat=seats - 1, at=T0))
    return match


@EVERY_SIZE
def test_a_match_not_yet_created_has_no_step_nobody_takes(seats: int) -> None:
    rules = rules_for(seats)
    assert rules.system_step(rules.initial()) is None


@EVERY_SIZE
def test_an_invited_seat_missing_at_creation_starts_the_join_deadline(seats: int) -> None:
    match = Match(seats, JOIN)

    step = match.step(match.made, waiting=[seats - 1])

    assert step == AwaitJoin(seat=seats - 1, at=NOW)
    (deadline,) = match.apply(step)
    assert isinstance(deadline, DeadlineSet)
    assert (deadline.kind, deadline.due_at) == ("join", NOW + timedelta(seconds=600))


@pytest.mark.parametrize("seats", [3, 4])
def test_the_lowest_missing_seat_starts_it_when_several_are_invited(seats: int) -> None:
    match = Match(seats, JOIN)
    assert match.step(match.made, waiting=[1, 2]) == AwaitJoin(seat=1, at=NOW)


def test_both_seats_of_two_invited_share_one_deadline_naming_neither() -> None:
    """As at three and four seats: the lower seat still absent is the no-show when it passes,
    never one that joined."""
    match = Match(2, JOIN)

    step = match.step(match.made, waiting=[0, 1])

    assert step == AwaitJoin(seat=None, at=NOW)
    (deadline,) = match.apply(step)
    assert isinstance(deadline, DeadlineSet)
    assert (deadline.seat, deadline.kind, deadline.due_at) == (
        None,
        "join",
        NOW + timedelta(seconds=600),
    )


@EVERY_SIZE
def test_the_join_deadline_is_set_once(seats: int) -> None:
    match = awaiting(seats)
    assert match.step([], waiting=[seats - 1]) is None


@EVERY_SIZE
def test_without_join_seconds_an_invited_seat_has_no_deadline(seats: int) -> None:
    for options in (TURN, UNCLOCKED):
        match = Match(seats, options)
        assert match.step(match.made, waiting=[seats - 1]) is None


@EVERY_SIZE
def test_seats_all_in_at_creation_need_no_join_deadline(seats: int) -> None:
    match = Match(seats, JOIN)
    assert match.step(match.made) is None


def test_two_seats_clear_the_join_deadline_once_the_invited_seat_is_in() -> None:
    match = awaiting(2)

    step = match.step([])  # the seat joined: nobody waits for it

    assert step == StampTime(at=NOW)
    assert match.apply(step) == [DeadlineSet(seat=None, at=NOW, due_at=None, banks_ms=[0, 0])]


@pytest.mark.parametrize("seats", [3, 4])
def test_more_seats_keep_the_join_deadline_until_the_cut_then_clear_it(seats: int) -> None:
    match = awaiting(seats)
    assert match.step([]) is None  # the cut waits for its system step

    step = match.step(match.cut())

    assert step == StampClocks(at=NOW, tables=[])
    banks = [0] * seats
    assert match.apply(step) == [DeadlineSet(seat=None, at=NOW, due_at=None, banks_ms=banks)]
    assert match.step(match.deal()) is None  # cleared once


@EVERY_SIZE
def test_an_unclocked_match_never_steps_its_clock(seats: int) -> None:
    match = Match(seats, UNCLOCKED)
    assert match.step(match.made) is None
    assert match.step(match.cut()) is None
    while match.rules.system_step(match.state) == "deal":
        assert match.step(match.deal()) is None
    seat = next(seat for seat in range(seats) if match.rules.awaits(match.state, seat))
    move = match.rules.legal_actions(match.state, seat)[0]
    made = match.rules.decided(match.state, move, seat, NOW)
    match.state = match.rules.fold(made, match.state)
    assert match.step(made) is None
    assert match.rules.deadline(match.state) is None


@pytest.mark.parametrize("seats", [3, 4])
def test_more_seats_restart_the_clocks_of_the_tables_dealt_or_played_only(seats: int) -> None:
    match = Match(seats, TURN)
    assert match.step(match.cut()) is None  # no table has a hand yet

    dealt = match.deal()
    assert match.step(dealt) == StampClocks(at=NOW, tables=[0])
    both = [*dealt, *match.deal()] if seats == 4 else dealt
    assert match.step([*both, *both]) == StampClocks(at=NOW, tables=[0, 1] if seats == 4 else [0])


def test_two_seats_restart_the_turn_clock_after_every_step() -> None:
    match = Match(2, TURN)
    assert match.step(match.cut()) == StampTime(at=NOW)


@pytest.mark.parametrize("players", [3, 4])
def test_the_decision_that_ends_a_round_is_charged_to_the_seat_s_bank(players: Players) -> None:
    """docs/rules.md "Three and four players": time beyond ``turn_seconds`` comes out of the
    bank, "the decision that ends a round included", though the round's end replaces the
    table and its clock."""
    match = format_match(players, dealer=players - 1, options=TURN)
    for table in range(len(match.state.tables)):
        match.deal_knock(table, knocker=match.state.tables[table].seats[0], dead="Ac")
    if players == 4:
        match.play(0)  # table 0's hand over: the round ends with table 1's
    last = len(match.state.tables) - 1
    knocker, dealer = match.state.tables[last].seats
    match.pass_upcard(knocker)
    match.pass_upcard(dealer)
    match.draw_stock(knocker)
    match.do(StampClocks(at=T0, tables=[last]))
    knock = Knock(seat=knocker, card=KNOCK_CARD)
    rules = rules_for(players)

    made = rules.decided(match.state, knock, knocker, T0 + timedelta(seconds=25))

    stamp = made[0]
    assert isinstance(stamp, TableEvent)
    assert stamp.table == last
    assert isinstance(stamp.event, DeadlineSet)
    assert stamp.event.at == T0 + timedelta(seconds=25)
    assert stamp.event.banks_ms[stamp.seats.index(knocker)] == 15_000  # 15 s over its 10
    assert any(type(event) is RoundScored for event in made)
    after = rules.fold(made, match.state)
    assert after.banks_ms[knocker] == 15_000
    assert after.round == 2
    # Played without its time, the same knock leaves the bank whole: the charge is the stamp.
    assert rules.fold(decide_tables(match.state, knock), match.state).banks_ms[knocker] == 30_000


@pytest.mark.parametrize("players", [3, 4])
def test_a_decision_that_leaves_the_round_going_is_decided_as_it_is(players: Players) -> None:
    match = format_match(players, dealer=players - 1, options=TURN)
    match.deal_knock(0, knocker=match.state.tables[0].seats[0], dead="Ac")
    if players == 4:
        match.deal_knock(1, knocker=match.state.tables[1].seats[0], dead="Ac")
    match.do(StampClocks(at=T0, tables=list(range(len(match.state.tables)))))
    first = match.state.tables[0].seats[0]
    move = PassUpcard(seat=first)

    made = rules_for(players).decided(match.state, move, first, T0 + timedelta(seconds=25))

    assert made == decide_tables(match.state, move)
