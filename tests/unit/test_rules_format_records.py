"""RULES.md "Three and four players": what a match records and shows as it goes (numbers,
scores, the cut, each seat's view), the arithmetic of a game's end and the wording of refusals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest

from domain.cards import names
from domain.commands import Knock
from domain.errors import IllegalMove
from domain.events import Dealt, Scored
from domain.options import RuleOptions
from domain.scoring import match_winner, settle_game
from domain.shuffle import shuffled_deck
from domain.tables import (
    CutSeats,
    FormatGameWon,
    FormatMatchWon,
    RoundScored,
    RoundStarted,
    SeatsCut,
    Settlement,
    TableEvent,
    decide_tables,
    redact_tables_events,
    tables_legal_actions,
    tables_public_view,
    tables_view,
)
from domain.tables.commands import DealTable
from domain.tables.events import Players
from domain.tables.seating import cut_for_dealer
from tests.unit.format_helpers import FormatMatch, format_match
from tests.unit.helpers import DEFENDER_92, KNOCKER_MELDS, cards

# Holds 8s, which the defender lays off on the knocker's 5s 6s 7s: the hand waits for it.
DEFENDER_WITH_LAYOFF = "6c 7c 8c 8h 9h Th Qc Qd Qs 8s"


T = TypeVar("T")


def of_kind(events: Sequence[object], kind: type[T]) -> list[T]:
    return [event for event in events if isinstance(event, kind)]


def table_events(events: Sequence[object], kind: type[object]) -> list[TableEvent]:
    return [e for e in of_kind(events, TableEvent) if isinstance(e.event, kind)]


# The cut


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_cuts_the_next_card_of_the_deck_and_no_card_is_cut_twice(
    players: Players,
) -> None:
    seed = next(
        f"{n:04x}"
        for n in range(10_000)
        if len(cut_for_dealer(bytes.fromhex(f"{n:04x}"), players)[0]) > 1
    )
    match = FormatMatch(players)
    match.do(CutSeats(seed=seed))
    (cut,) = of_kind(match.events, SeatsCut)
    assert len(cut.rounds) > 1  # the lowest card was tied at least once
    assert all(len(cards_cut) == players for cards_cut in cut.rounds)
    deck = names(shuffled_deck(bytes.fromhex(seed)))
    assert [card for cards_cut in cut.rounds for card in cards_cut] == deck[
        : players * len(cut.rounds)
    ]


def test_the_cut_is_shown_to_everybody_for_the_whole_match() -> None:
    match = format_match(3, dealer=1)
    (cut,) = of_kind(match.events, SeatsCut)
    assert match.state.cut == cut
    assert tables_public_view(match.state).cut == cut
    match.knock_hand(0, knocker=0, dead="Ac")
    assert tables_view(match.state, 2).cut == cut


# Round, game and hand numbers


def test_the_first_round_is_hand_1_of_game_1_and_each_round_after_it_the_next_hand() -> None:
    match = format_match(3, dealer=2)
    first = of_kind(match.events, RoundStarted)[0]
    assert (first.round, first.game, first.hand) == (1, 1, 1)
    match.knock_hand(0, knocker=0, dead="Ac")
    second = of_kind(match.events, RoundStarted)[-1]
    assert (second.round, second.game, second.hand) == (2, 1, 2)
    public = tables_public_view(match.state)
    assert (public.round, public.game, public.hand_number) == (2, 1, 2)


def test_each_table_s_deal_is_numbered_with_the_match_s_game_and_hand() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=30, match_target=1000))
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0: 4
    match.knock_hand(0, knocker=2, dead="5d")  # seat 2 gins against seat 0: 30, game 2 begins
    match.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_92}, upcard="2c", stock="Ks")
    dealt = [event.event for event in table_events(match.events, Dealt)]
    assert [(deal.game, deal.hand) for deal in dealt if isinstance(deal, Dealt)] == [
        (1, 1),
        (1, 2),
        (2, 1),
    ]
    table = tables_public_view(match.state).tables[0].view
    assert (table.game, table.hand_number) == (2, 1)


def test_every_table_dealt_counts_as_a_deal_of_the_match() -> None:
    match = format_match(4, dealer=3)
    assert match.state.deals == 0
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c")
    assert match.state.deals == 1
    match.deal(1, {2: KNOCKER_MELDS + " Ac", 3: DEFENDER_92}, upcard="2c")
    assert match.state.deals == 2


# The end of a round, a game and the match


def test_the_move_that_ends_the_round_s_last_hand_answers_its_end_then_the_round_s_score() -> None:
    match = format_match(3, dealer=2)
    match.deal_knock(0, knocker=0, dead="Ac")
    produced = match.play(0)
    assert [type(event) for event in produced] == [TableEvent] * 2 + [RoundScored, RoundStarted]
    ended = produced[1]  # after the knock itself
    assert isinstance(ended, TableEvent)
    assert isinstance(ended.event, Scored)
    assert (ended.seats, ended.event.winner, ended.event.points) == ([0, 1], 0, 4)


def test_the_last_round_and_its_hands_are_shown_until_the_next_round_is_scored() -> None:
    match = format_match(3, dealer=2)
    match.knock_hand(0, knocker=0, dead="Ac")
    (scored,) = of_kind(match.events, RoundScored)
    ended = table_events(match.events, Scored)[-1]
    public = tables_public_view(match.state)
    assert public.last_round == scored
    assert public.last_hands == [ended.event]
    assert match.state.last_round == scored


def test_games_won_count_every_game_a_side_wins_and_the_last_game_is_shown() -> None:
    match = format_match(3, dealer=2, options=RuleOptions(game_target=4, match_target=100_000))
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 wins game 1; seat 1 deals game 2
    match.knock_hand(0, knocker=0, dead="Ac")  # seat 0 beats seat 2: game 2
    won = of_kind(match.events, FormatGameWon)
    assert [game.game for game in won] == [1, 2]
    assert match.state.games_won == (2, 0, 0)
    public = tables_public_view(match.state)
    assert public.scores.games_won == [2, 0, 0]
    assert public.last_game == won[-1]
    assert match.state.last_game == won[-1]


def test_the_match_s_winner_is_recorded_and_shown() -> None:
    match = format_match(4, dealer=3, options=RuleOptions(game_target=1, match_target=0))
    match.knock_round((0, "5d"), (3, "Ac"))
    (over,) = of_kind(match.events, FormatMatchWon)
    assert over.winner == 0
    assert match.state.winner == 0
    assert tables_public_view(match.state).winner == 0
    assert tables_view(match.state, 1).winner == 0


def test_a_match_score_equal_to_the_target_wins_the_match() -> None:
    assert match_winner((500, 120), 0, RuleOptions(match_target=500)) == 0
    assert match_winner((499, 120), 0, RuleOptions(match_target=500)) is None


def test_a_match_score_of_0_does_not_reach_a_target_of_1() -> None:
    assert match_winner((0, 0, 0), 0, RuleOptions(match_target=1)) is None
    assert match_winner((0, 0, 0), 1, RuleOptions(match_target=0)) == 1


def test_equal_highest_match_scores_go_to_the_last_game_s_winner_if_among_them() -> None:
    assert match_winner((300, 300, 100), 1, RuleOptions(match_target=0)) == 1
    assert match_winner((300, 300, 100), 0, RuleOptions(match_target=0)) == 0


def test_equal_highest_match_scores_go_to_the_lowest_side_if_the_game_s_winner_is_behind() -> None:
    assert match_winner((100, 300, 300), 0, RuleOptions(match_target=0)) == 1
    assert match_winner((300, 300, 400), 2, RuleOptions(match_target=0)) == 2


def test_two_sides_with_equal_totals_settle_nothing() -> None:
    # Seat 0 won the game; seats 1 and 2 both won no hand and scored nothing.
    settlements = settle_game(0, (30, 0, 0), (1, 0, 0), RuleOptions())
    assert settlements[2] == Settlement(
        sides=[1, 2], totals=[0, 0], shutout_bonus=0, scored_by=None, points=0
    )


def test_a_total_1_point_ahead_scores_that_point() -> None:
    settlements = settle_game(0, (100, 2, 1), (2, 1, 1), RuleOptions())
    assert settlements[2] == Settlement(
        sides=[1, 2], totals=[27, 26], shutout_bonus=0, scored_by=1, points=1
    )
    settlements = settle_game(0, (100, 1, 2), (2, 1, 1), RuleOptions())
    assert settlements[2] == Settlement(
        sides=[1, 2], totals=[26, 27], shutout_bonus=0, scored_by=2, points=1
    )


# What each seat sees


def knocked_awaiting_layoff() -> FormatMatch:
    """Three players: seat 0 has knocked against seat 1, who may lay off 8s; seat 2 sits out."""
    match = format_match(3, dealer=2)
    match.deal_knock(0, knocker=0, dead="Ac", defender=DEFENDER_WITH_LAYOFF)
    match.play(0)
    assert match.state.turns == [1]
    return match


def test_a_seat_sees_its_own_table_as_a_two_player_seat_does() -> None:
    match = knocked_awaiting_layoff()
    own = tables_view(match.state, 0).tables[0].view
    assert own.knock is not None
    assert own.knock.knock_card == "Ks"  # the knocker sees the card it knocked with
    for seat in (1, 2):
        seen = tables_view(match.state, seat).tables[0].view
        assert seen.knock is not None
        assert seen.knock.knock_card is None
    public = tables_public_view(match.state).tables[0].view
    assert public.knock is not None
    assert public.knock.knock_card is None


def test_each_seat_sees_its_own_hand_and_its_own_legal_actions_in_its_view() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")
    seen = tables_view(match.state, 0)
    assert (seen.seat, seen.table) == (0, 0)
    assert seen.hand == cards(KNOCKER_MELDS + " Ac")
    assert seen.legal_actions == tables_legal_actions(match.state, 0)
    assert seen.legal_actions != []
    assert all(getattr(action, "seat", 0) == 0 for action in seen.legal_actions)


def test_a_seat_s_event_list_shows_its_own_dealt_cards_and_hides_its_opponent_s() -> None:
    match = format_match(3, dealer=0)  # seat 1 is dealt to first, seat 2 plays the dealer
    match.deal(0, {1: KNOCKER_MELDS + " Ac", 2: DEFENDER_92}, upcard="2c", stock="Ks")
    for seat, own in ((1, 0), (2, 1)):
        events = redact_tables_events(list(enumerate(match.events)), seat)
        dealt = events[-1][1]
        assert isinstance(dealt, TableEvent)
        assert isinstance(dealt.event, Dealt)
        assert dealt.event.hands[own] != []
        assert dealt.event.hands[1 - own] == []
    events = redact_tables_events(list(enumerate(match.events)), 2)
    dealt = events[-1][1]
    assert isinstance(dealt, TableEvent)
    assert isinstance(dealt.event, Dealt)
    assert sorted(dealt.event.hands[1]) == sorted(cards(DEFENDER_92))


# Moves and refusals


def test_a_seat_playing_the_dealer_s_part_may_knock_naming_its_melds() -> None:
    match = format_match(3, dealer=0)  # seat 2 plays at table seat 1
    match.deal_knock(0, knocker=2, dead="Ac")
    match.pass_upcard(1)
    match.pass_upcard(2)
    match.draw_stock(1)
    match.discard(1, "3h")
    match.draw_stock(2)
    melds = [cards("5s 6s 7s"), cards("Jc Jd Jh"), cards("2d 3d 4d")]
    produced = match.seat_command(Knock(seat=2, card="Ks", melds=melds))
    ended = produced[1]  # after the knock itself
    assert isinstance(ended, TableEvent)
    assert isinstance(ended.event, Scored)
    assert (ended.event.winner, ended.event.points) == (1, 4)  # table seat 1: match seat 2
    assert of_kind(produced, RoundScored)[0].winner == 2


def test_cutting_again_once_the_cut_is_made_is_refused_word_for_word() -> None:
    match = format_match(3, dealer=2)
    with pytest.raises(IllegalMove) as error:
        decide_tables(match.state, CutSeats(seed="ab"))
    assert str(error.value) == "cannot cut for the deal now: the match is in its deal phase"


def test_dealing_once_every_table_is_dealt_is_refused_word_for_word() -> None:
    match = format_match(3, dealer=2)
    match.deal(0, {0: KNOCKER_MELDS + " Ac", 1: DEFENDER_92}, upcard="2c", stock="Ks")
    with pytest.raises(IllegalMove) as error:
        decide_tables(match.state, DealTable(seed="ab"))
    assert str(error.value) == "cannot deal now: the match is in its play phase"
