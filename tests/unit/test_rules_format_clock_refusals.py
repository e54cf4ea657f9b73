"""Three- and four-player matches: what the match's own view shows as rounds, games and the
match go by, the system's action templates, and the refusals of clocks, timeouts and
resigning, word for word."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.commands import Resign, TimeOut
from domain.errors import DomainError, IllegalMove, InvalidCommand, InvalidOptions, MatchOver
from domain.events import DeadlineSet
from domain.options import RuleOptions
from domain.tables import (
    CutSeats,
    DealTable,
    FormatPhase,
    StartFormatMatch,
    TableEvent,
    TablesState,
    decide_tables,
    tables_legal_actions,
    tables_public_view,
    tables_view,
)
from domain.tables.commands import FormatCommand, StampClocks
from tests.unit.format_helpers import FormatMatch, format_match
from tests.unit.helpers import DEFENDER_5, DEFENDER_92, KNOCK_CARD, KNOCKER_MELDS

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
CLOCKED = RuleOptions(turn_seconds=10, bank_seconds=30, timeouts_to_forfeit=2)


def refusal(match: FormatMatch, command: FormatCommand) -> tuple[type[DomainError], str]:
    with pytest.raises(DomainError) as refused:
        match.do(command)
    return type(refused.value), str(refused.value)


def four_dealt(options: RuleOptions = CLOCKED) -> FormatMatch:
    """Seat 0 plays seat 1 at table 0, seat 2 seat 3 at table 1; seats 0 and 2 are offered
    the upcard first; neither table's clock is stamped yet."""
    match = format_match(4, dealer=3, options=options)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    match.deal(1, {2: KNOCKER_MELDS + " Ac", 3: DEFENDER_92}, upcard="2h", stock=KNOCK_CARD)
    return match


def test_the_system_is_offered_the_cut_and_each_deal_with_the_seed_left_to_it() -> None:
    match = FormatMatch(3)
    assert tables_legal_actions(match.state, None) == [CutSeats(seed="")]
    match = format_match(3, dealer=2)
    assert tables_legal_actions(match.state, None) == [DealTable(seed="")]


def test_the_views_show_who_deals_who_sits_out_and_the_round_game_and_hand() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=1, match_target=0))
    for shown in (tables_view(match.state, 0), tables_public_view(match.state)):
        assert (shown.dealer_side, shown.sitting_out) == (2, 2)
        assert (shown.round, shown.game, shown.hand_number) == (1, 1, 1)
        assert shown.cut == match.state.cut is not None
        assert shown.teams is None
    match.knock_hand(0, knocker=1, dead="Ac")  # seat 1 wins the hand, the game and the match
    shown = tables_public_view(match.state)
    assert match.state.phase is FormatPhase.MATCH_OVER
    assert shown.winner == match.state.winner == 1
    assert shown.last_round is not None
    assert shown.last_round.winner == 1
    assert shown.last_game is not None
    assert shown.last_game.winner == 1
    assert shown.turns == []


def test_a_new_game_starts_with_no_hands_won_and_the_game_s_first_hand() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=1, match_target=500))
    match.knock_hand(0, knocker=1, dead="Ac")  # the first game goes to seat 1
    assert match.state.phase is FormatPhase.DEAL
    assert (match.state.round, match.state.game, match.state.hand) == (2, 2, 1)
    assert match.state.hands_won == (0, 0, 0)
    # The loser of the last hand, seat 0, sits out and deals.
    assert match.state.sitting_out == tables_public_view(match.state).sitting_out == 0


def test_the_four_player_views_name_the_teams() -> None:
    match = four_dealt()
    assert tables_public_view(match.state).teams == [[0, 2], [1, 3]]
    assert tables_view(match.state, 1).teams == [[0, 2], [1, 3]]


def test_a_match_s_next_deadline_is_the_earliest_of_the_tables_on_the_clock() -> None:
    match = four_dealt()
    produced = match.do(StampClocks(at=T0, tables=[1]))  # only table 1 has been stamped
    assert produced[-1] == DeadlineSet(2, T0, T0 + timedelta(seconds=40), [30_000] * 4)
    match.do(StampClocks(at=T0 + timedelta(seconds=1), tables=[0]))
    match.pass_upcard(2)
    produced = match.do(StampClocks(at=T0 + timedelta(seconds=3), tables=[1]))
    # Table 0's seat 0 has been waiting since T0 + 1 s: it is due first.
    assert produced[-1] == DeadlineSet(
        0, T0 + timedelta(seconds=1), T0 + timedelta(seconds=41), [30_000] * 4
    )


def test_a_hand_over_at_one_table_leaves_the_match_s_deadline_to_the_other() -> None:
    match = four_dealt()
    match.do(StampClocks(at=T0, tables=[0, 1]))
    match.pass_upcard(0)
    match.pass_upcard(1)
    match.draw_stock(0)
    match.knock(0, KNOCK_CARD)  # 1 against 5: no layoff, table 0's hand is over
    produced = match.do(StampClocks(at=T0 + timedelta(seconds=2), tables=[0]))
    deadline = produced[-1]
    assert isinstance(deadline, DeadlineSet)
    assert (deadline.seat, deadline.due_at) == (2, T0 + timedelta(seconds=40))


@pytest.mark.parametrize("tables", [[0, 0], [2], [-1], [True]])
def test_clocks_are_stamped_only_on_distinct_tables_of_the_round(tables: list[int]) -> None:
    assert refusal(four_dealt(), StampClocks(at=T0, tables=tables)) == (
        InvalidCommand,
        "tables must be distinct tables of the round",
    )


def test_no_clock_is_stamped_once_a_match_has_ended_or_without_a_turn_clock() -> None:
    match = four_dealt()
    match.do(Resign(seat=3))
    assert match.do(StampClocks(at=T0, tables=[0, 1])) == []
    assert four_dealt(RuleOptions()).do(StampClocks(at=T0, tables=[0, 1])) == []


@pytest.mark.parametrize("seat", [3, -1, True])
def test_a_timeout_names_a_seat_of_the_match(seat: int) -> None:
    match = format_match(3, dealer=2, options=CLOCKED)
    assert refusal(match, TimeOut(seat=seat, at=T0)) == (InvalidCommand, "seat must be 0 to 2")


def test_a_timeout_after_the_match_is_over_is_refused_saying_so() -> None:
    match = four_dealt()
    match.do(Resign(seat=0))
    assert refusal(match, TimeOut(seat=1, at=T0)) == (MatchOver, "the match is over")


def test_resigning_a_match_not_created_or_already_over_is_refused_word_for_word() -> None:
    with pytest.raises(IllegalMove) as refused:
        decide_tables(TablesState(), Resign(seat=0))
    assert str(refused.value) == "you cannot resign a match that has not been created"
    match = four_dealt()
    match.do(Resign(seat=0))
    assert refusal(match, Resign(seat=1))[1] == "the match is over: you cannot resign it any more"


def test_a_format_match_s_options_must_be_rule_options() -> None:
    bad = StartFormatMatch(players=3, options={"knock_limit": 5})  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions) as refused:
        decide_tables(TablesState(), bad)
    assert str(refused.value) == "options must be a set of rule options"


def test_table_events_name_both_seats_of_their_table() -> None:
    match = four_dealt()
    (event,) = match.pass_upcard(2)
    assert isinstance(event, TableEvent)
    assert (event.table, event.seats) == (1, [2, 3])


def test_the_views_of_a_running_match_show_whose_turn_it_is() -> None:
    match = four_dealt()
    for shown in (tables_view(match.state, 1), tables_public_view(match.state)):
        assert shown.turns == [0, 2]


def test_timeouts_in_a_row_carry_into_the_seat_s_next_hand_and_forfeit_there() -> None:
    match = format_match(3, dealer=2, options=CLOCKED)  # seat 0 plays seat 1, who deals
    match.deal(0, {0: KNOCKER_MELDS + " 9c", 1: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    match.pass_upcard(0)
    match.do(StampClocks(at=T0, tables=[0]))
    match.do(TimeOut(seat=1, at=T0 + timedelta(seconds=40)))  # seat 1 passes by default
    match.draw_stock(0)
    match.knock(0, KNOCK_CARD)  # 9 against 5: seat 1 undercuts without acting again
    match.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    assert match.state.tables[0].seats == (1, 2)  # seat 0 lost: it sits out and deals
    assert match.state.tables[0].state.timeouts == (1, 0)
    match.do(StampClocks(at=T0 + timedelta(seconds=60), tables=[0]))
    match.do(TimeOut(seat=1, at=T0 + timedelta(seconds=70)))  # its bank is spent
    assert match.state.ending is not None
    assert (match.state.ending.reason, match.state.ending.seat) == ("forfeited_on_time", 1)


def test_nobody_times_out_before_every_table_of_the_round_is_dealt() -> None:
    match = format_match(4, dealer=3, options=CLOCKED)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_5}, upcard="2c", stock=KNOCK_CARD)
    match.do(StampClocks(at=T0, tables=[0]))
    assert match.state.phase is FormatPhase.DEAL  # table 1 waits for its deal
    assert refusal(match, TimeOut(seat=0, at=T0 + timedelta(seconds=60))) == (
        IllegalMove,
        "seat 0 is not on the clock",
    )
