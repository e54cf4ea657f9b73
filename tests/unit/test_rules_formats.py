"""RULES.md "Three and four players", rule by rule, and the points it leaves open as
docs/rules.md decides them."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.commands import ChooseDealer, DrawFromStock, PassUpcard, Resign
from domain.errors import (
    DomainError,
    IllegalMove,
    InvalidCommand,
    MatchAlreadyEnded,
    MatchOver,
    NotYourTurn,
)
from domain.events import Dealt, Scored
from domain.options import RuleOptions
from domain.tables import (
    CutSeats,
    FormatGameWon,
    FormatMatchWon,
    FormatPhase,
    RoundScored,
    RoundStarted,
    SeatsCut,
    Settlement,
    StartFormatMatch,
    TableEvent,
    decide_tables,
    redact_tables_events,
    tables_legal_actions,
    tables_public_view,
    tables_view,
)
from domain.tables.commands import FormatCommand
from domain.tables.seating import cut_for_dealer
from domain.tables.state import Players, TablesState
from tests.unit.format_helpers import FormatMatch, assert_the_round_ended_the_game, format_match
from tests.unit.helpers import DEFENDER_92, KNOCKER_MELDS, cards


def last(match: FormatMatch, kind: type) -> object:
    return [event for event in match.events if isinstance(event, kind)][-1]


def round_scored(match: FormatMatch) -> RoundScored:
    scored = last(match, RoundScored)
    assert isinstance(scored, RoundScored)
    return scored


def started(match: FormatMatch) -> RoundStarted:
    begun = last(match, RoundStarted)
    assert isinstance(begun, RoundStarted)
    return begun


# Three players ("round robin")


def test_three_all_cut_and_the_lowest_card_deals_the_first_hand_and_sits_it_out() -> None:
    match = format_match(3, dealer=1)
    cut = last(match, SeatsCut)
    assert isinstance(cut, SeatsCut)
    assert cut.dealer == 1
    ranks = ["A23456789TJQK".index(card[0]) for card in cut.rounds[-1]]
    assert ranks[1] < ranks[0]
    assert ranks[1] < ranks[2]
    begun = started(match)
    assert (begun.dealer_side, begun.sitting_out) == (1, 1)
    assert begun.tables == [[2, 0]]  # dealt to the other two
    assert match.state.phase is FormatPhase.DEAL


def test_three_a_tie_for_the_lowest_card_cuts_again() -> None:
    seed = next(
        f"{n:04x}"
        for n in range(10_000)
        if len(cut_for_dealer(bytes.fromhex(f"{n:04x}"), 3)[0]) > 1
    )
    rounds, dealer = cut_for_dealer(bytes.fromhex(seed), 3)
    first = [card % 13 for card in rounds[0]]  # ranks, A = 0
    assert first.count(min(first)) > 1
    match = FormatMatch(3)
    match.do(CutSeats(seed=seed))
    cut = last(match, SeatsCut)
    assert isinstance(cut, SeatsCut)
    assert len(cut.rounds) == len(rounds)
    assert cut.dealer == dealer


def test_three_the_first_after_the_dealer_is_dealt_to_and_offered_the_upcard_first() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")
    dealt = match.events[-1]
    assert isinstance(dealt, TableEvent)
    assert isinstance(dealt.event, Dealt)
    assert dealt.seats == [0, 1]
    assert dealt.event.dealer == 1
    assert match.state.turns == [0]
    assert tables_legal_actions(match.state, 1) == []


def test_three_a_refusal_names_the_match_seat_whose_turn_it_is() -> None:
    match = format_match(3, dealer=0)  # seat 1 is offered the upcard first, seat 2 deals
    match.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_92}, upcard="2c")
    with pytest.raises(NotYourTurn, match="seat 1 is to play"):
        match.do(PassUpcard(seat=2))


def test_three_the_seat_sitting_out_cannot_play_and_has_no_actions() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")
    assert tables_legal_actions(match.state, 2) == []
    with pytest.raises(NotYourTurn, match="sits this hand out"):
        match.do(PassUpcard(seat=2))


def test_three_the_loser_sits_out_and_deals_the_next_hand_to_the_winner_and_the_sitter() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 beats seat 1: 5 - 1 = 4
    scored = round_scored(match)
    assert (scored.winner, scored.points, scored.hand_points) == (0, [4, 0, 0], [4, 0, 0])
    begun = started(match)
    assert (begun.dealer_side, begun.sitting_out) == (1, 1)  # the loser deals and sits out
    assert sorted(begun.tables[0]) == [0, 2]  # the winner plays the one who sat out
    assert begun.tables == [[2, 0]]


def test_three_an_undercut_makes_the_knocker_the_loser_who_sits_out() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=0, dead="9c")  # 9 against 5: seat 1 undercuts, 4 + 25
    scored = round_scored(match)
    assert (scored.winner, scored.points) == (1, [0, 29, 0])
    assert started(match).sitting_out == 0


def test_three_each_player_keeps_their_own_score() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0: 4; seat 1 sits out next
    match.knock_hand(0, knocker=2, dead="5d")  # seat 2 gins against seat 0: 5 + 25
    scored = round_scored(match)
    assert scored.hand_points == [4, 0, 30]
    assert scored.hands_won == [1, 0, 1]
    assert tables_public_view(match.state).scores.hand_points == [4, 0, 30]


def test_three_a_hand_nobody_wins_is_dealt_again_by_the_same_dealer_to_the_same_two() -> None:
    match = format_match(3, dealer=2)
    match.wall_hand(0)
    scored = round_scored(match)
    assert (scored.winner, scored.points) == (None, [0, 0, 0])
    begun = started(match)
    assert (begun.round, begun.sitting_out, begun.tables) == (2, 2, [[0, 1]])


def test_three_the_game_ends_when_one_player_reaches_the_target() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=30, match_target=0))
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0: 4
    assert not any(isinstance(e, FormatGameWon) for e in match.events)
    match.knock_hand(0, knocker=2, dead="5d")  # seat 2: 30, the target
    won = last(match, FormatGameWon)
    assert isinstance(won, FormatGameWon)
    assert won.winner == 2


@pytest.mark.parametrize("players", [3, 4])
def test_a_table_s_hand_that_reaches_the_target_leaves_the_game_to_the_match(
    players: Players,
) -> None:
    options = RuleOptions(game_target=1, match_target=0)
    match = format_match(players, dealer=players - 1, options=options)
    if players == 3:
        match.knock_hand(0, knocker=0, dead="Ac")
    else:
        match.knock_round((0, "5d"), (3, "Ac"))  # team 0 nets 26
    assert_the_round_ended_the_game(match)


@pytest.mark.parametrize("players", [3, 4])
def test_each_table_s_view_shows_the_targets_of_a_hand_that_ends_no_game(
    players: Players,
) -> None:
    options = RuleOptions(game_target=30, match_target=200, knock_limit=7)
    match = format_match(players, dealer=players - 1, options=options)
    shown = replace(options, game_target=10_000, match_target=0)
    for viewer in (None, 0):
        seen = tables_public_view(match.state) if viewer is None else tables_view(match.state, 0)
        assert [table.view.options for table in seen.tables] == [shown] * len(seen.tables)
        assert seen.options == options


@pytest.mark.parametrize("players", [3, 4])
def test_a_table_s_view_scores_its_hand_alone(players: Players) -> None:
    """A table's hand has no game or match of its own: its view's scores are the hand's
    points and hands won, and the match's scores are the match view's alone."""
    match = format_match(players, dealer=players - 1, options=RuleOptions(game_target=500))
    match.deal_knock(0, knocker=0, dead="5d")
    if players == 4:
        match.deal_knock(1, knocker=3, dead="Ac")
    match.play(0)  # at four seats table 1 still plays; at three a new round waits to deal
    scored = [e.event for e in match.events if isinstance(e, TableEvent)][-1]
    assert isinstance(scored, Scored)
    assert scored.winner == 0
    for seen in (tables_public_view(match.state), tables_view(match.state, 0)):
        for table in seen.tables:
            scores = table.view.scores
            assert (scores.match_scores, scores.games_won) == ([0, 0], [0, 0])
        if players == 4:  # the scored hand is still on show
            scores = seen.tables[0].view.scores
            assert (scores.hand_points, scores.hands_won) == (scored.hand_points, [1, 0])


def test_three_bonuses_apply_per_player_and_each_pair_settles_its_difference() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=30, match_target=0))
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 beats seat 1: 4
    match.knock_hand(0, knocker=2, dead="5d")  # seat 2 gins against seat 0: 30
    won = last(match, FormatGameWon)
    assert isinstance(won, FormatGameWon)
    assert (won.hand_points, won.hands_won, won.line_bonuses) == (
        [4, 0, 30],
        [1, 0, 1],
        [25, 0, 25],
    )
    # Seat 2, the winner: 30 + 25 + 100 against seat 0 (who won a hand), plus the shutout
    # bonus against seat 1 (who won none). Seat 0 against seat 1: 29 to 0, no game bonus.
    assert won.settlements == [
        Settlement(sides=[0, 1], totals=[29, 0], shutout_bonus=0, scored_by=0, points=29),
        Settlement(sides=[0, 2], totals=[29, 155], shutout_bonus=0, scored_by=2, points=126),
        Settlement(sides=[1, 2], totals=[0, 255], shutout_bonus=100, scored_by=2, points=255),
    ]
    assert won.match_scores == [29, 0, 381]
    over = last(match, FormatMatchWon)
    assert isinstance(over, FormatMatchWon)
    assert over.winner == 2
    assert match.state.phase is FormatPhase.MATCH_OVER


def test_three_the_match_goes_on_to_a_new_game_dealt_by_the_last_hands_loser() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=4))
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 reaches 4: game over, match goes on
    begun = started(match)
    assert (begun.game, begun.hand, begun.sitting_out) == (2, 1, 1)
    assert match.state.hand_points == (0, 0, 0)
    assert match.state.games_won == (1, 0, 0)


def test_three_no_dealer_is_chosen_by_a_seat() -> None:
    match = format_match(3, dealer=2)
    with pytest.raises(InvalidCommand, match="cut alone"):
        match.do(ChooseDealer(seat=0, dealer=1))


def test_three_a_seat_outside_the_match_is_refused() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c")
    with pytest.raises(InvalidCommand, match="0 to 2"):
        match.do(PassUpcard(seat=3))


def test_three_the_seat_sitting_out_sees_public_information_only() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")
    seen = tables_view(match.state, 2)
    assert seen.hand == []
    assert seen.table is None
    assert seen.legal_actions == []
    assert seen.tables[0].view == tables_public_view(match.state).tables[0].view
    assert tables_view(match.state, 0).hand == cards(KNOCKER_MELDS + " Ac")
    events = redact_tables_events(list(enumerate(match.events)), 2)
    dealt = events[-1][1]
    assert isinstance(dealt, TableEvent)
    assert isinstance(dealt.event, Dealt)
    assert dealt.event.hands == [[], []]
    assert dealt.event.stock == []


# Four players (partnerships)


def test_four_partners_sit_opposite_and_the_lowest_cut_s_team_deals_first() -> None:
    match = format_match(4, dealer=3)
    begun = started(match)
    assert begun.dealer_side == 1  # seat 3 is in team 1 with seat 1
    assert tables_public_view(match.state).teams == [[0, 2], [1, 3]]
    assert begun.sitting_out is None


def test_four_each_plays_a_separate_hand_against_an_opponent_of_the_other_team() -> None:
    match = format_match(4, dealer=3)
    begun = started(match)
    assert begun.tables == [[0, 1], [2, 3]]  # team 1's members play the dealer's part
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c")
    assert match.state.phase == "deal"  # the other table is dealt from its own deck
    match.deal(1, {2: KNOCKER_MELDS + " Ac", 3: DEFENDER_92}, upcard="2c")
    assert match.state.phase is FormatPhase.PLAY
    assert match.state.turns == [0, 2]  # both hands are played at once
    match.pass_upcard(2)
    match.pass_upcard(0)
    assert match.state.turns == [1, 3]


def test_four_partners_switch_opponents_every_round() -> None:
    match = format_match(4, dealer=3)
    match.knock_round((0, "Ac"), (2, "Ac"))  # team 0 wins the round and deals the next
    assert started(match).tables == [[3, 0], [1, 2]]  # seat 0 now plays 3, seat 2 plays 1


def test_four_the_round_is_over_only_when_both_hands_are() -> None:
    match = format_match(4, dealer=3)
    match.deal_knock(0, knocker=0, dead="Ac")
    match.deal_knock(1, knocker=3, dead="Ac")
    match.play(0)
    assert not any(isinstance(e, RoundScored) for e in match.events)
    assert tables_legal_actions(match.state, 0) == tables_legal_actions(match.state, 1) == []
    with pytest.raises(NotYourTurn, match="other table"):
        match.do(DrawFromStock(seat=1))
    match.play(1)
    assert round_scored(match).round == 1


def test_four_a_team_result_is_the_sum_of_its_hands_and_only_the_net_is_scored() -> None:
    match = format_match(4, dealer=3)
    # Team 0 (seat 0) gins: 5 + 25 = 30; team 1 (seat 3) knocks: 5 - 1 = 4.
    match.knock_round((0, "5d"), (3, "Ac"))
    scored = round_scored(match)
    assert (scored.points, scored.winner, scored.net) == ([30, 4], 0, 26)
    assert scored.hand_points == [26, 0]
    assert scored.hands_won == [1, 0]


def test_four_both_hands_of_one_team_add_up() -> None:
    match = format_match(4, dealer=3)
    match.knock_round((1, "Ac"), (3, "Ac"))  # team 1: 4 and 4
    scored = round_scored(match)
    assert (scored.points, scored.winner, scored.net) == ([0, 8], 1, 8)


def test_four_a_hand_at_the_wall_counts_zero() -> None:
    match = format_match(4, dealer=3)
    match.deal_wall(0)
    match.deal_knock(1, knocker=2, dead="Ac")  # team 0: 4
    match.play(0)
    match.play(1)
    scored = round_scored(match)
    assert (scored.points, scored.winner, scored.net) == ([4, 0], 0, 4)


def test_four_the_winning_team_deals_the_next_round() -> None:
    match = format_match(4, dealer=3)
    match.knock_round((0, "5d"), (3, "Ac"))
    begun = started(match)
    assert begun.dealer_side == 0
    assert begun.tables == [[3, 0], [1, 2]]  # team 0's members play the dealer's part


def test_four_a_round_with_equal_results_scores_nothing_and_the_same_team_deals() -> None:
    match = format_match(4, dealer=3)
    match.knock_round((0, "Ac"), (3, "Ac"))  # team 0: 4, team 1: 4
    scored = round_scored(match)
    assert (scored.points, scored.winner, scored.net) == ([4, 4], None, 0)
    assert started(match).dealer_side == 1


def test_four_with_alternate_dealing_the_teams_take_turns() -> None:
    match = format_match(4, dealer=3, options=RuleOptions(next_dealer="alternate"))
    match.knock_round((1, "Ac"), (3, "Ac"))
    assert started(match).dealer_side == 0  # team 1 won, but the deal alternates


def test_four_game_line_and_shutout_bonuses_go_to_teams() -> None:
    match = format_match(4, dealer=3, options=RuleOptions(game_target=20, match_target=0))
    match.knock_round((0, "5d"), (3, "Ac"))  # team 0: 30, team 1: 4; net 26 to team 0
    won = last(match, FormatGameWon)
    assert isinstance(won, FormatGameWon)
    assert (won.winner, won.hand_points, won.hands_won) == (0, [26, 0], [1, 0])
    assert won.settlements == [
        Settlement(
            sides=[0, 1],
            totals=[26 + 25 + 100 + 100, 0],
            shutout_bonus=100,
            scored_by=0,
            points=251,
        ),
    ]
    over = last(match, FormatMatchWon)
    assert isinstance(over, FormatMatchWon)
    assert (over.winner, over.match_scores) == (0, [251, 0])


def test_four_partners_and_the_other_table_see_public_information_only() -> None:
    match = format_match(4, dealer=3)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c")
    match.deal(1, {2: KNOCKER_MELDS + " 9c", 3: DEFENDER_92.replace("Kc", "Kd")}, upcard="3c")
    partner = tables_view(match.state, 2)  # seat 0's partner, at the other table
    assert partner.tables[0].view == tables_public_view(match.state).tables[0].view
    assert set(partner.hand) == set((KNOCKER_MELDS + " 9c").split())
    for seat in (1, 2, 3):
        text = str(tables_view(match.state, seat).tables[0])
        assert "Ac" not in text
    for seat in (1, 3):
        events = redact_tables_events(list(enumerate(match.events)), seat)
        dealt = events[-2][1]
        assert isinstance(dealt, TableEvent)
        assert isinstance(dealt.event, Dealt)
        assert dealt.event.hands[0] == []
        assert dealt.event.stock == []


def test_four_a_finished_match_refuses_play() -> None:
    match = format_match(4, dealer=3, options=RuleOptions(game_target=1, match_target=0))
    match.knock_round((0, "5d"), (3, "Ac"))
    assert match.state.phase is FormatPhase.MATCH_OVER
    with pytest.raises(MatchOver):
        match.do(DrawFromStock(seat=0))
    with pytest.raises(MatchOver):
        match.do(CutSeats(seed="ab"))


def test_formats_play_only_once_dealt_and_replay_to_the_same_state() -> None:
    match = format_match(4, dealer=0)
    with pytest.raises(IllegalMove, match="not been dealt"):
        match.do(PassUpcard(seat=1))
    match.knock_round((1, "Ac"), (2, "Ac"))
    assert match.replayed() == match.state
    scored = [e for e in match.events if isinstance(e, TableEvent) and isinstance(e.event, Scored)]
    assert scored[0].seats == [1, 0]


def test_resigning_is_never_listed_among_a_format_seat_s_legal_actions() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")

    assert not any(type(action) is Resign for action in tables_legal_actions(match.state, 0))


def refusal(state: TablesState, command: FormatCommand) -> tuple[type[DomainError], str]:
    with pytest.raises(DomainError) as caught:
        decide_tables(state, command)
    return type(caught.value), str(caught.value)


def test_format_refusals_name_the_seat_and_the_rule_word_for_word() -> None:
    assert refusal(TablesState(), StartFormatMatch(players=5)) == (  # type: ignore[arg-type]
        InvalidCommand,
        "a match of this kind has 3 or 4 players",
    )
    assert refusal(FormatMatch(3).state, StartFormatMatch(players=3)) == (
        IllegalMove,
        "cannot create the match now: the match is in its cut phase",
    )
    three = format_match(3, dealer=0)  # seat 0 sits out, seat 1 is offered the upcard first
    assert refusal(three.state, PassUpcard(seat=1)) == (
        IllegalMove,
        "you cannot play now: the hand has not been dealt yet",
    )
    three.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_92}, upcard="2c")
    assert refusal(three.state, PassUpcard(seat=2)) == (
        NotYourTurn,
        "it is not your turn: seat 1 is to play",
    )
    assert refusal(three.state, PassUpcard(seat=0)) == (
        NotYourTurn,
        "seat 0 sits this hand out and deals it",
    )
    assert refusal(three.state, PassUpcard(seat=3)) == (InvalidCommand, "seat must be 0 to 2")
    assert refusal(three.state, ChooseDealer(seat=1, dealer=2)) == (
        InvalidCommand,
        "the cut alone decides the first dealer in this format",
    )
    four = format_match(4, dealer=3)
    four.deal_knock(0, knocker=0, dead="Ac")
    four.deal_knock(1, knocker=3, dead="Ac")
    four.play(0)
    assert refusal(four.state, DrawFromStock(seat=1)) == (
        NotYourTurn,
        "your hand is over: the round ends when the other table's hand does",
    )
    over = format_match(4, dealer=3, options=RuleOptions(game_target=1, match_target=0))
    over.knock_round((0, "5d"), (3, "Ac"))
    assert refusal(over.state, DrawFromStock(seat=0)) == (MatchOver, "the match is over")
    assert refusal(over.state, CutSeats(seed="ab")) == (MatchOver, "the match is over")
    assert refusal(over.state, Resign(seat=1)) == (
        MatchAlreadyEnded,
        "the match is over: you cannot resign it any more",
    )
