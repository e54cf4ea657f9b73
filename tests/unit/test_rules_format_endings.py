"""docs/rules.md "Three and four players": resigning, turn clocks and forfeits on time, as
decided for the formats, in card notation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import PassUpcard, Resign, TimeOut
from domain.errors import IllegalMove, MatchAlreadyEnded, MatchOver
from domain.events import DeadlineSet, Event, MatchEnded, SeatReturned, TimedOut
from domain.options import RuleOptions
from domain.tables import (
    FormatEvent,
    FormatPhase,
    TableEvent,
    tables_legal_actions,
    tables_public_view,
    tables_view,
)
from domain.tables.commands import FormatCommand, StampClocks
from domain.tables.state import Players, TablesState
from tests.unit.format_helpers import FormatMatch, assert_the_round_ended_the_game, format_match
from tests.unit.helpers import DEFENDER_5, DEFENDER_92, KNOCK_CARD, KNOCKER_MELDS

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
CLOCKED = RuleOptions(turn_seconds=10, bank_seconds=30, timeouts_to_forfeit=2)


def seconds(n: float) -> timedelta:
    return timedelta(seconds=n)


def ending(match: FormatMatch) -> MatchEnded:
    assert match.state.phase is FormatPhase.MATCH_OVER
    assert match.state.ending is not None
    return match.state.ending


def ends(match: FormatMatch, command: FormatCommand) -> MatchEnded:
    *_, ended = match.do(command)
    assert isinstance(ended, MatchEnded)
    return ended


def table_clocks(produced: Sequence[FormatEvent]) -> list[DeadlineSet]:
    """The table clocks set by ``produced``."""
    return [e.event for e in produced if isinstance(e, TableEvent) and type(e.event) is DeadlineSet]


def table_events(match: FormatMatch, produced: Sequence[FormatEvent], kind: type) -> list[Event]:
    return [e.event for e in produced if isinstance(e, TableEvent) and isinstance(e.event, kind)]


def clocked_four() -> FormatMatch:
    """Four seats on the clock, both tables dealt: seat 0 plays seat 1 at table 0, seat 2
    seat 3 at table 1, team 1 dealing; seats 0 and 2 are offered the upcard first."""
    match = format_match(4, dealer=3, options=CLOCKED)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    match.deal(1, {2: KNOCKER_MELDS + " Ac", 3: DEFENDER_92}, upcard="2h", stock=KNOCK_CARD)
    return match


# Resigning


def test_four_a_resignation_concedes_the_match_for_the_resigning_seat_s_team() -> None:
    match = clocked_four()
    match.pass_upcard(0)

    ended = ends(match, Resign(seat=2))

    assert ended == ending(match)
    assert (ended.reason, ended.seat, ended.winner) == ("resigned", 2, 1)
    assert ended.match_scores == [0, 0]
    assert match.state.winner == 1
    assert all(tables_legal_actions(match.state, seat) == [] for seat in range(4))
    assert tables_public_view(match.state).turns == []
    assert match.replayed() == match.state


def test_four_a_resigned_match_keeps_the_unfinished_hands_hidden() -> None:
    match = clocked_four()
    match.do(Resign(seat=1))

    seen = tables_view(match.state, 1)
    assert seen.ending is not None
    assert seen.ending.winner == 0
    # Seat 1 sees its own hand, and of the other table only the cards' count.
    assert sorted(seen.hand) == sorted(DEFENDER_5.split())
    other = seen.tables[1].view
    assert other.card_counts == [10, 10]
    assert "Ac" not in repr(other)
    assert "Ac" not in repr(tables_public_view(match.state))


def test_a_format_match_that_is_over_refuses_moves_and_a_second_resignation() -> None:
    match = clocked_four()
    match.do(Resign(seat=0))

    with pytest.raises(MatchOver):
        match.do(PassUpcard(seat=2))
    with pytest.raises(MatchAlreadyEnded, match="you cannot resign it any more"):
        match.do(Resign(seat=3))


def test_a_seat_may_resign_before_the_deal_and_while_sitting_out() -> None:
    match = format_match(3, dealer=2)  # seat 2 sits out the first hand
    assert match.state.phase is FormatPhase.DEAL

    ended = ends(match, Resign(seat=2))

    assert (ended.reason, ended.seat, ended.winner) == ("resigned", 2, 0)


def test_three_a_resignation_goes_to_the_other_player_with_the_higher_match_score() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=1))
    match.knock_hand(0, knocker=1, dead="Ac")  # seat 1 wins the hand and the first game
    assert match.state.match_scores[1] > 0 == match.state.match_scores[2]
    assert match.state.hand_points == (0, 0, 0)

    ended = ends(match, Resign(seat=0))

    assert (ended.reason, ended.seat, ended.winner) == ("resigned", 0, 1)
    assert ended.match_scores == list(match.state.match_scores)


def test_three_equal_match_scores_go_to_the_higher_hand_points_of_the_game_in_progress() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=1, dead="Ac")
    assert match.state.hand_points[1] > 0

    ended = ends(match, Resign(seat=2))

    assert ended.winner == 1


def test_three_between_equal_standings_the_lower_seat_wins() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 ahead; seats 1 and 2 level

    ended = ends(match, Resign(seat=0))

    assert ended.winner == 1


# Turn clocks


def test_four_each_table_has_its_own_clock_and_the_match_waits_for_the_earliest() -> None:
    match = clocked_four()

    produced = match.do(StampClocks(at=T0, tables=[0]))
    assert table_clocks(produced) == [
        DeadlineSet(seat=0, at=T0, due_at=T0 + seconds(40), banks_ms=[30_000, 30_000])
    ]
    assert produced[-1] == DeadlineSet(0, T0, T0 + seconds(40), [30_000] * 4)

    produced = match.do(StampClocks(at=T0 - seconds(5), tables=[1]))
    earlier = T0 + seconds(35)
    assert produced[-1] == DeadlineSet(2, T0 - seconds(5), earlier, [30_000] * 4)
    assert match.state.deadline == produced[-1]
    clocks = [table.view.clock for table in tables_view(match.state, 3).tables]
    assert [(c.seat, c.due_at) for c in clocks if c] == [(0, T0 + seconds(40)), (0, earlier)]


def test_four_a_move_at_one_table_restarts_only_that_table_s_clock() -> None:
    match = clocked_four()
    match.do(StampClocks(at=T0, tables=[0, 1]))
    match.pass_upcard(2)

    produced = match.do(StampClocks(at=T0 + seconds(25), tables=[1]))

    # Seat 2 took 15 s past its 10: its bank pays 15 s, and seat 3 is on table 1's clock.
    (table_clock,) = table_clocks(produced)
    assert table_clock == DeadlineSet(1, T0 + seconds(25), T0 + seconds(65), [15_000, 30_000])
    assert match.state.tables[0].state.clock.due_at == T0 + seconds(40)  # type: ignore[union-attr]
    # The match's next deadline is still table 0's, so it is not recorded again.
    assert len(produced) == 1
    assert match.state.deadline is not None
    assert (match.state.deadline.seat, match.state.deadline.due_at) == (0, T0 + seconds(40))


def test_a_move_made_in_time_is_no_timeout_and_a_timeout_before_the_deadline_is_refused() -> None:
    match = clocked_four()
    match.do(StampClocks(at=T0, tables=[0, 1]))

    with pytest.raises(IllegalMove, match="seat 0 has until"):
        match.do(TimeOut(seat=0, at=T0 + seconds(39)))
    with pytest.raises(IllegalMove, match="seat 1 is not on the clock"):
        match.do(TimeOut(seat=1, at=T0 + seconds(99)))


def test_formats_a_timeout_makes_the_seat_s_default_move_at_its_table() -> None:
    match = clocked_four()
    match.do(StampClocks(at=T0, tables=[0, 1]))

    produced = match.do(TimeOut(seat=2, at=T0 + seconds(40)))

    assert all(isinstance(e, TableEvent) and e.table == 1 for e in produced)
    timed_out, spent, passed = (e.event for e in produced if isinstance(e, TableEvent))
    assert timed_out == TimedOut(0, due_at=T0 + seconds(40), at=T0 + seconds(40), consecutive=1)
    # Its bank is spent at once, then its default move is made.
    assert spent == DeadlineSet(None, T0 + seconds(40), None, banks_ms=[0, 30_000])
    assert type(passed).__name__ == "UpcardPassed"
    assert match.state.tables[1].state.turn == 1  # seat 3 is offered the upcard
    after = match.do(StampClocks(at=T0 + seconds(40), tables=[1]))
    (table_clock,) = table_clocks(after)
    assert table_clock.banks_ms == [0, 30_000]


def test_four_a_forfeit_on_time_concedes_the_match_for_the_team() -> None:
    match = clocked_four()
    match.do(StampClocks(at=T0, tables=[0, 1]))
    match.do(TimeOut(seat=0, at=T0 + seconds(40)))  # table 0: seat 0 passes; seat 1 to play
    match.pass_upcard(1)
    match.do(StampClocks(at=T0 + seconds(41), tables=[0]))  # seat 0 to draw, bank empty

    produced = match.do(TimeOut(seat=0, at=T0 + seconds(51)))

    timed_out, ended = produced
    assert isinstance(timed_out, TableEvent)
    assert timed_out.event == TimedOut(0, T0 + seconds(51), T0 + seconds(51), 2)
    assert ended == ending(match)
    assert (ended.reason, ended.seat, ended.winner) == ("forfeited_on_time", 0, 1)
    assert [table.view.clock for table in tables_public_view(match.state).tables] == [None, None]
    assert match.replayed() == match.state


def test_three_a_forfeit_on_time_ends_the_match_as_a_resignation_would() -> None:
    options = RuleOptions(turn_seconds=5, timeouts_to_forfeit=1)
    match = format_match(3, dealer=2, options=options)
    match.knock_hand(0, knocker=1, dead="Ac")  # seat 1 ahead; seat 0 sits out and deals
    match.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_5}, upcard="2c")
    first = match.state.tables[0].seats[0]
    match.do(StampClocks(at=T0, tables=[0]))

    *_, ended = match.do(TimeOut(seat=first, at=T0 + seconds(5)))

    assert isinstance(ended, MatchEnded)
    assert (ended.reason, ended.seat) == ("forfeited_on_time", first)
    assert ended.winner == (1 if first == 2 else 0)


def test_formats_a_seat_s_bank_and_timeouts_in_a_row_carry_over_to_its_next_hand() -> None:
    match = format_match(3, dealer=2, options=CLOCKED)  # seat 0 plays seat 1, who deals
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    match.pass_upcard(0)
    match.do(StampClocks(at=T0, tables=[0]))
    match.do(TimeOut(seat=1, at=T0 + seconds(40)))  # seat 1 passes by default
    match.do(StampClocks(at=T0 + seconds(40), tables=[0]))
    match.draw_stock(0)
    match.knock(0, KNOCK_CARD)  # seat 1 loses: it sits out and deals the next hand

    assert match.state.round == 2
    assert match.state.banks_ms == (30_000, 0, 30_000)
    assert match.state.timeouts == (0, 1, 0)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 2: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    (table_clock,) = table_clocks(match.do(StampClocks(at=T0 + seconds(60), tables=[0])))
    assert table_clock.banks_ms == [30_000, 30_000]


def test_formats_a_seat_that_acts_after_a_timeout_starts_its_count_over() -> None:
    match = clocked_four()
    match.do(StampClocks(at=T0, tables=[0, 1]))
    match.do(TimeOut(seat=2, at=T0 + seconds(40)))
    match.pass_upcard(3)

    produced = match.draw_stock(2)

    assert table_events(match, produced, SeatReturned) == [SeatReturned(seat=0)]
    assert match.state.tables[1].state.timeouts == (0, 0)


def test_an_unclocked_format_match_records_no_deadline() -> None:
    match = format_match(4, dealer=3)
    match.deal_knock(0, knocker=0, dead="Ac")
    match.deal_knock(1, knocker=3, dead="Ac")

    assert match.do(StampClocks(at=T0, tables=[0, 1])) == []
    assert match.state.deadline is None
    assert isinstance(TablesState().deadline, type(None))


# A hand ended by a timeout, or by a seat back from one, ends no game at its table either:
# those moves take the path of every command, not the plain moves' shortcut.

ONE_POINT_GAME = RuleOptions(
    game_target=1, match_target=0, turn_seconds=10, bank_seconds=0, timeouts_to_forfeit=3
)


def knocked_on_the_clock(players: Players, *, defender: str) -> FormatMatch:
    """Seat 0 at table 0 is to draw KNOCK_CARD and knock, with table 0's clock running; at
    four seats, table 1's hand is already over at the wall (so table 0's decides the round)."""
    match = format_match(players, dealer=players - 1, options=ONE_POINT_GAME)
    match.deal_knock(0, knocker=0, dead="Ac", defender=defender)
    if players == 4:
        match.wall_hand(1)
    opponent = match.state.tables[0].seats[1]
    match.pass_upcard(0)
    match.pass_upcard(opponent)
    match.do(StampClocks(at=T0, tables=[0]))
    return match


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_back_from_a_timeout_that_ends_its_hand_leaves_the_game_to_the_match(
    players: Players,
) -> None:
    match = knocked_on_the_clock(players, defender=DEFENDER_5)
    match.do(TimeOut(seat=0, at=T0 + seconds(10)))  # drawn for it: KNOCK_CARD
    produced = match.knock(0, KNOCK_CARD)
    assert isinstance(produced[0], TableEvent)
    assert isinstance(produced[0].event, SeatReturned)
    assert_the_round_ended_the_game(match)


@pytest.mark.parametrize("players", [3, 4])
def test_a_timeout_whose_default_move_ends_the_hand_leaves_the_game_to_the_match(
    players: Players,
) -> None:
    match = knocked_on_the_clock(players, defender="Js 6c 7c 8c 8h 9h Th Qc Qd Qs")
    match.draw_stock(0)
    match.knock(0, KNOCK_CARD)  # the defender may lay off Js on the jacks
    opponent = match.state.tables[0].seats[1]
    match.do(StampClocks(at=T0 + seconds(1), tables=[0]))
    match.do(TimeOut(seat=opponent, at=T0 + seconds(11)))  # finishes the layoff for it
    assert_the_round_ended_the_game(match)
