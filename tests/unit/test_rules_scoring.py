"""RULES.md "Scoring a hand" and "The next hand", with Oklahoma and the undercut options.

The knocker (seat 0, not dealing) shows nine melded cards and one dead card; the defender
holds DEFENDER_5 (deadwood 5) or DEFENDER_92 (deadwood 92), none of which can be laid off.
"""

from __future__ import annotations

import pytest

from domain.commands import Knock
from domain.errors import IllegalMove
from domain.events import GameWon, Scored
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import Phase
from tests.unit.helpers import (
    DEFENDER_5,
    DEFENDER_92,
    KNOCK_CARD,
    KNOCKER_MELDS,
    cards,
    deal,
    knock_hand,
    new_table,
    scored_in,
)


def score(
    dead: str, defender: str = DEFENDER_5, upcard: str = "2c", **options: object
) -> tuple[str, int | None, int]:
    table = new_table(RuleOptions(**options), dealer=1)  # type: ignore[arg-type]
    scored = scored_in(knock_hand(table, knocker=0, dead=dead, defender=defender, upcard=upcard))
    return scored.outcome, scored.winner, scored.points


def test_knock_scores_the_difference_for_the_knocker() -> None:
    assert score("Ac") == ("knock", 0, 5 - 1)


def test_undercut_scores_the_difference_plus_undercut_bonus_for_the_defender() -> None:
    assert score("9c") == ("undercut", 1, 9 - 5 + 25)


@pytest.mark.parametrize("knocker", [0, 1])
def test_either_seat_knocking_can_be_undercut_by_the_other(knocker: int) -> None:
    table = new_table(dealer=1)
    scored = scored_in(knock_hand(table, knocker=knocker, dead="9c"))
    assert (scored.outcome, scored.winner, scored.points) == ("undercut", 1 - knocker, 29)
    assert table.state.hand_points[1 - knocker] == 29


def test_undercut_on_tie_scores_for_the_defender() -> None:
    assert score("5c", undercut_on_tie=True) == ("undercut", 1, 0 + 25)


def test_tie_without_undercut_on_tie_scores_nothing_and_the_dealer_deals_again() -> None:
    table = new_table(RuleOptions(undercut_on_tie=False), dealer=1)
    scored = scored_in(knock_hand(table, knocker=0, dead="5c"))
    assert (scored.outcome, scored.winner, scored.points) == ("tie", None, 0)
    assert table.state.hand_points == (0, 0)
    assert table.state.hands_won == (0, 0)
    assert table.state.dealer == 1


def test_tie_without_undercut_on_tie_keeps_the_dealer_even_when_the_deal_alternates() -> None:
    # A tie counts as a drawn hand for who deals next, under either next_dealer rule.
    table = new_table(RuleOptions(undercut_on_tie=False, next_dealer="alternate"), dealer=1)
    scored = scored_in(knock_hand(table, knocker=0, dead="5c"))
    assert (scored.outcome, scored.winner, scored.points) == ("tie", None, 0)
    assert table.state.dealer == 1
    knock_hand(table, knocker=0, dead="Ac")  # a scored hand: the deal passes
    assert table.state.dealer == 0


def test_a_tie_that_scores_nothing_wins_no_hand_for_the_line_or_shutout_bonus() -> None:
    options = RuleOptions(undercut_on_tie=False, game_target=4)
    table = new_table(options, dealer=1)
    knock_hand(table, knocker=1, dead="5c")  # seat 1 knocks and ties: nobody wins
    knock_hand(table, knocker=0, dead="Ac")  # seat 0: 4, the game
    (won,) = [event for event in table.events if isinstance(event, GameWon)]
    assert won.hands_won == [1, 0]
    assert (won.line_bonuses, won.shutout_bonus) == ([25, 0], 100)


def test_gin_scores_the_defenders_deadwood_plus_gin_bonus() -> None:
    assert score("5d", DEFENDER_92) == ("gin", 0, 92 + 25)


def test_gin_cannot_be_undercut() -> None:
    melded = "6c 7c 8c 8h 9h Th Qc Qd Qs Qh"  # no deadwood either
    assert score("5d", melded) == ("gin", 0, 0 + 25)


def test_the_winner_of_a_hand_deals_the_next() -> None:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac")  # seat 0 wins
    assert table.state.dealer == 0
    knock_hand(table, knocker=0, dead="9c")  # seat 0, now dealing, is undercut
    assert table.state.dealer == 1


def test_next_dealer_alternate_passes_the_deal_whoever_wins() -> None:
    table = new_table(RuleOptions(next_dealer="alternate"), dealer=1)
    knock_hand(table, knocker=0, dead="9c")  # seat 1, the dealer, wins
    assert table.state.dealer == 0


def test_oklahoma_ace_upcard_means_gin_only() -> None:
    table = new_table(RuleOptions(oklahoma=True), dealer=1)
    with pytest.raises(
        IllegalMove, match="deadwood would be 1; this hand can only be ended by gin"
    ):
        knock_hand(table, knocker=0, dead="Ac", upcard="Ah")
    assert table.state.knock_limit == 0
    assert Knock(seat=0, card=KNOCK_CARD) not in legal_actions(table.state, 0)
    gin = new_table(RuleOptions(oklahoma=True), dealer=1)
    scored = scored_in(knock_hand(gin, knocker=0, dead="5d", upcard="Ah"))
    assert (scored.outcome, scored.points) == ("gin", 5 + 25)


def test_oklahoma_upcard_value_sets_the_knock_limit() -> None:
    table = new_table(RuleOptions(oklahoma=True), dealer=1)
    with pytest.raises(IllegalMove, match="deadwood would be 9; the knock limit is 8"):
        knock_hand(table, knocker=0, dead="9c", upcard="8d")
    assert score("9c", upcard="Kh", oklahoma=True) == ("undercut", 1, 9 - 5 + 25)


def test_oklahoma_spade_upcard_doubles_the_hand() -> None:
    assert score("Ac", upcard="9s", oklahoma=True) == ("knock", 0, (5 - 1) * 2)
    assert score("5d", DEFENDER_92, upcard="Ts", oklahoma=True) == ("gin", 0, (92 + 25) * 2)


def test_oklahoma_spades_double_off_leaves_a_spade_upcard_single() -> None:
    assert score("Ac", upcard="9s", oklahoma=True, oklahoma_spades_double=False) == (
        "knock",
        0,
        5 - 1,
    )


def test_without_oklahoma_the_upcard_changes_nothing() -> None:
    assert score("Ac", upcard="9s") == ("knock", 0, 5 - 1)
    assert score("9c", upcard="As") == ("undercut", 1, 9 - 5 + 25)


def test_a_scored_hand_adds_to_the_winners_hand_points() -> None:
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac")
    knock_hand(table, knocker=0, dead="Ac")
    assert table.state.hand_points == (8, 0)
    assert table.state.hands_won == (2, 0)
    assert table.state.phase is Phase.DEAL


def test_oklahoma_spade_upcard_doubles_big_gin() -> None:
    # Seat 0 (not dealing) melds all eleven cards after drawing 5h; the defender has 79.
    table = deal(
        seat0="7c 7d 7h 7s 8s 9s Ah 2h 3h 4h",
        seat1="2c 4c Qc Kc 6d 8d Td Qh Kh 9h",
        upcard="Ts",
        stock="5h",
        dealer=1,
        options=RuleOptions(oklahoma=True),
    )
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    scored = scored_in(table.big_gin(0))
    assert (scored.outcome, scored.winner, scored.multiplier) == ("big_gin", 0, 2)
    assert scored.points == (79 + 31) * 2
    assert type(scored.points) is int


def test_the_score_shows_each_meld_in_card_order_and_the_cards_that_count() -> None:
    table = new_table(dealer=1)
    scored = scored_in(knock_hand(table, knocker=0, dead="Ac"))
    assert scored == Scored(
        knocker=0,
        outcome="knock",
        winner=0,
        points=5 - 1,
        multiplier=1,
        knocker_deadwood=1,
        defender_deadwood=5,
        knock_card=KNOCK_CARD,
        # Melds are listed by their lowest card, clubs before diamonds, hearts and spades.
        knocker_melds=[cards("Jc Jd Jh"), cards("2d 3d 4d"), cards("5s 6s 7s")],
        defender_melds=[cards("6c 7c 8c"), cards("Qc Qd Qs"), cards("8h 9h Th")],
        defender_deadwood_cards=["5h"],
        layoffs=[],
        hands=[cards(f"{KNOCKER_MELDS} Ac"), cards(DEFENDER_5)],
        hand_points=[4, 0],
    )


def test_of_equal_defender_arrangements_the_one_whose_melds_sort_first_is_shown() -> None:
    # 9c 9d 9h with 8c Tc dead, or 8c 9c Tc with 9d 9h dead: 18 either way. The run's
    # lowest card, 8c, comes before the set's, 9c.
    table = new_table(dealer=1)
    defender = "8c 9c Tc 9d 9h 2h 4h 6h Kh Qd"
    scored = scored_in(knock_hand(table, knocker=0, dead="Ac", defender=defender))
    assert scored.defender_melds == [cards("8c 9c Tc")]
    assert scored.defender_deadwood_cards == cards("9d 9h 2h 4h 6h Kh Qd")
    assert (scored.defender_deadwood, scored.points) == (50, 49)
