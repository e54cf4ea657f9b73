"""RULES.md "A game" and "A match": targets, game, line and shutout bonuses, match end."""

from __future__ import annotations

import pytest

from domain.commands import Deal
from domain.errors import MatchOver
from domain.events import Dealt, GameWon, MatchWon
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import Phase
from domain.views import public_view
from tests.unit.helpers import DEFENDER_92, Table, knock_hand, new_table


def game_won(table: Table) -> GameWon:
    (won,) = [event for event in table.events if isinstance(event, GameWon)][-1:]
    return won


def test_game_ends_when_hand_points_reach_the_target_with_a_shutout() -> None:
    table = new_table(RuleOptions(game_target=4), dealer=1)
    knock_hand(table, knocker=0, dead="Ac")  # 5 - 1 = 4 points
    won = game_won(table)
    assert won == GameWon(
        game=1,
        winner=0,
        hand_points=[4, 0],
        hands_won=[1, 0],
        game_bonus=100,
        line_bonuses=[25, 0],
        shutout_bonus=100,
        totals=[4 + 100 + 25 + 100, 0],
        scored_by=0,
        points=229,
        match_scores=[229, 0],
    )
    assert table.state.match_scores == (229, 0)
    assert table.state.games_won == (1, 0)
    assert table.state.hand_points == (0, 0)
    assert (table.state.game, table.state.phase) == (2, Phase.DEAL)


def test_a_new_game_starts_at_its_first_hand_and_shows_the_game_just_won() -> None:
    table = new_table(RuleOptions(game_target=4), dealer=1)
    knock_hand(table, knocker=0, dead="Ac")
    shown = public_view(table.state)
    assert (shown.game, shown.hand_number, shown.last_game) == (2, 0, game_won(table))
    knock_hand(table, knocker=1, dead="Ac")
    dealt = [event for event in table.events if isinstance(event, Dealt)]
    assert [(event.game, event.hand) for event in dealt] == [(1, 1), (2, 1)]


def three_hand_game(options: RuleOptions) -> Table:
    table = new_table(options, dealer=1)
    knock_hand(table, knocker=0, dead="Ac")  # seat 0: 4
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4
    knock_hand(table, knocker=0, dead="5d")  # seat 0 gins: 5 + 25
    return table


def test_game_bonus_and_a_line_bonus_per_hand_won_without_shutout() -> None:
    table = three_hand_game(RuleOptions(game_target=30))
    won = game_won(table)
    assert (won.winner, won.hand_points, won.hands_won) == (0, [34, 4], [2, 1])
    assert (won.game_bonus, won.line_bonuses, won.shutout_bonus) == (100, [50, 25], 0)
    assert won.totals == [34 + 100 + 50, 4 + 25]
    assert (won.scored_by, won.points) == (0, 184 - 29)


def test_no_game_ends_below_the_target() -> None:
    table = three_hand_game(RuleOptions(game_target=35))
    assert not [event for event in table.events if isinstance(event, GameWon)]
    assert table.state.hand_points == (34, 4)


def test_the_higher_total_scores_the_difference_even_when_line_bonuses_outweigh() -> None:
    table = new_table(RuleOptions(game_target=30, game_bonus=0), dealer=1)
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4
    knock_hand(table, knocker=0, dead="5d")  # seat 0 gins: 30, and wins the game
    won = game_won(table)
    assert (won.winner, won.hands_won) == (0, [1, 2])
    assert won.totals == [30 + 25, 8 + 50]
    assert (won.scored_by, won.points) == (1, 3)
    assert table.state.match_scores == (0, 3)
    assert table.state.games_won == (1, 0)


def test_equal_game_totals_score_nothing_into_the_match() -> None:
    # Seat 0 reaches the target with one hand won; seat 1 won two: 30 + 25 + 3 = 8 + 50.
    table = new_table(RuleOptions(game_target=30, game_bonus=3), dealer=1)
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4
    knock_hand(table, knocker=0, dead="5d")  # seat 0 gins: 30, and wins the game
    won = game_won(table)
    assert (won.winner, won.totals) == (0, [58, 58])
    assert (won.scored_by, won.points, won.match_scores) == (None, 0, [0, 0])
    assert table.state.match_scores == (0, 0)
    assert table.state.games_won == (1, 0)
    assert (table.state.game, table.state.phase) == (2, Phase.DEAL)


def test_a_match_to_one_point_plays_on_after_a_game_of_equal_totals() -> None:
    table = new_table(RuleOptions(game_target=30, game_bonus=3, match_target=1), dealer=1)
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=0, dead="5d")
    assert not any(isinstance(event, MatchWon) for event in table.events)
    assert (table.state.match_scores, table.state.phase) == ((0, 0), Phase.DEAL)


def test_a_single_game_match_with_equal_totals_goes_to_the_winner_of_the_game() -> None:
    table = new_table(RuleOptions(game_target=30, game_bonus=3, match_target=0), dealer=1)
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=0, dead="5d")
    assert table.events[-1] == MatchWon(winner=0, match_scores=[0, 0], games_won=[1, 0])


def test_the_first_dealer_of_a_new_game_is_the_winner_of_the_last_hand() -> None:
    table = three_hand_game(RuleOptions(game_target=30))
    assert table.state.dealer == 0
    assert table.state.game == 2


@pytest.mark.parametrize(
    ("next_dealer", "dealers"), [("alternate", [1, 0, 1, 0]), ("winner", [1, 1, 1, 1])]
)
def test_next_dealer_alternate_keeps_alternating_across_the_games_of_a_match(
    next_dealer: str, dealers: list[int]
) -> None:
    options = RuleOptions(next_dealer=next_dealer, game_target=4, match_target=1000)  # type: ignore[arg-type]
    table = new_table(options, dealer=1)
    for _ in range(3):  # seat 1 wins every hand, and with it every game
        knock_hand(table, knocker=1, dead="Ac")
    assert [event.dealer for event in table.events if isinstance(event, Dealt)] == dealers[:3]
    assert [event.game for event in table.events if isinstance(event, GameWon)] == [1, 2, 3]
    assert (table.state.game, table.state.dealer) == (4, dealers[3])


def test_a_match_reaching_500() -> None:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_92)  # gin: 92 + 25
    assert table.state.match_scores == (117 + 100 + 25 + 100, 0)
    assert table.state.phase is Phase.DEAL
    knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_92)  # seat 0 now deals
    assert table.events[-1] == MatchWon(winner=0, match_scores=[684, 0], games_won=[2, 0])
    final = table.state
    assert (final.phase, final.winner, final.turn) == (Phase.MATCH_OVER, 0, None)
    assert public_view(final).turn is None
    assert legal_actions(table.state, 0) == legal_actions(table.state, 1) == []
    assert legal_actions(table.state, None) == []
    with pytest.raises(MatchOver, match="the match is over"):
        table.do(Deal(seed="00"))
    with pytest.raises(MatchOver):
        table.draw_stock(1)


def test_match_target_zero_is_a_single_game() -> None:
    table = new_table(RuleOptions(match_target=0, game_target=4), dealer=1)
    knock_hand(table, knocker=0, dead="Ac")
    assert table.events[-1] == MatchWon(winner=0, match_scores=[229, 0], games_won=[1, 0])
    assert table.state.phase is Phase.MATCH_OVER


def test_the_match_goes_on_below_the_match_target() -> None:
    table = new_table(RuleOptions(match_target=230, game_target=4), dealer=1)
    knock_hand(table, knocker=0, dead="Ac")
    assert table.state.phase is Phase.DEAL
    assert table.state.match_scores == (229, 0)


def line_heavy_game(options: RuleOptions) -> Table:
    """Seat 1 wins two hands (4 + 4), then seat 0 gins for 30 and the game: totals
    30 + 25 + game bonus against 8 + 50."""
    table = new_table(options, dealer=1)
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=1, dead="Ac")
    knock_hand(table, knocker=0, dead="5d")
    return table


@pytest.mark.parametrize(("game_bonus", "scored_by"), [(4, 0), (2, 1)])
def test_a_game_total_higher_by_a_single_point_scores_that_point(
    game_bonus: int, scored_by: int
) -> None:
    table = line_heavy_game(RuleOptions(game_target=30, game_bonus=game_bonus))
    won = game_won(table)
    assert won.totals == [55 + game_bonus, 58]
    assert (won.winner, won.scored_by, won.points) == (0, scored_by, 1)
    expected = [0, 0]
    expected[scored_by] = 1
    assert table.state.match_scores == tuple(expected)


def test_seat_1_wins_the_match_on_reaching_the_target() -> None:
    table = new_table(RuleOptions(game_target=4, match_target=229), dealer=1)
    knock_hand(table, knocker=1, dead="Ac")  # seat 1: 4, the game, 229 with the bonuses
    assert table.events[-1] == MatchWon(winner=1, match_scores=[0, 229], games_won=[0, 1])
    assert (table.state.phase, table.state.winner) == (Phase.MATCH_OVER, 1)


def test_the_match_goes_to_the_higher_match_score_not_the_winner_of_the_last_game() -> None:
    # Seat 0 wins the game, but seat 1's line bonuses make its total 3 higher: seat 1
    # scores the game's 3 points, which reach the match target.
    table = line_heavy_game(RuleOptions(game_target=30, game_bonus=0, match_target=3))
    assert game_won(table).winner == 0
    assert table.events[-1] == MatchWon(winner=1, match_scores=[0, 3], games_won=[1, 0])


def test_a_single_game_match_goes_to_the_higher_match_score() -> None:
    table = line_heavy_game(RuleOptions(game_target=30, game_bonus=0, match_target=0))
    assert table.events[-1] == MatchWon(winner=1, match_scores=[0, 3], games_won=[1, 0])


def test_equal_match_scores_below_the_target_play_on() -> None:
    table = new_table(RuleOptions(game_target=4, match_target=230), dealer=1)
    knock_hand(table, knocker=0, dead="Ac")  # game 1: seat 0, 229
    knock_hand(table, knocker=1, dead="Ac")  # game 2: seat 1, 229
    assert table.state.match_scores == (229, 229)
    assert not [event for event in table.events if isinstance(event, MatchWon)]
    assert (table.state.game, table.state.phase) == (3, Phase.DEAL)
