"""RULES.md "Knocking": the knock limit, the knocker's arrangement, gin and big gin."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domain.commands import BigGin, Discard, Knock
from domain.errors import IllegalMove
from domain.events import Knocked
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import Phase
from tests.unit.helpers import DEFENDER_5, Table, cards, deal, knock_hand, new_table, scored_in

DEFENDER = "2c 4c Qc Kc 6d 8d Td Qh Kh 9h"  # no meld (deadwood 79), nothing fits below


def drawn(
    seat0: str, draw: str, *, seat1: str = DEFENDER, options: RuleOptions | None = None
) -> Table:
    """Seat 0 (not dealing) holds ``seat0``; both pass the upcard and seat 0 draws ``draw``."""
    table = deal(seat0=seat0, seat1=seat1, upcard="Jc", stock=draw, dealer=1, options=options)
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    return table


def knocked(events: Sequence[object]) -> Knocked:
    assert isinstance(events[0], Knocked)
    return events[0]


def test_knock_allowed_with_any_card_leaving_deadwood_within_the_limit() -> None:
    table = drawn("As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "2d")
    knocks = {a.card for a in legal_actions(table.state, 0) if isinstance(a, Knock)}
    assert knocks == {"Kd", "2d"}
    shown = knocked(table.knock(0, "Kd"))
    assert shown.deadwood == ["2d"]
    assert shown.deadwood_count == 2


def test_knock_refused_when_deadwood_would_exceed_the_knock_limit() -> None:
    table = drawn("As 2s 3s 4h 5h 6h Ac 2c 5d 6c", "Kd", seat1="8c 9c Tc 7d 8d Qh Kh 9s Ts 7s")
    assert not [a for a in legal_actions(table.state, 0) if isinstance(a, Knock)]
    with pytest.raises(IllegalMove, match=r"^deadwood would be 14; the knock limit is 10$"):
        table.knock(0, "Kd")


def test_knocking_is_never_compulsory() -> None:
    table = drawn("As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "2d")
    assert Discard(seat=0, card="Kd") in legal_actions(table.state, 0)
    table.discard(0, "Kd")
    assert table.state.phase is Phase.DRAW


def test_the_knock_card_goes_face_down_not_on_the_pile() -> None:
    table = drawn("As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "2d")
    table.knock(0, "Kd")
    assert table.state.pile == drawn("As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "2d").state.pile


def test_a_four_card_set_is_split_to_feed_a_run() -> None:
    table = drawn("7c 7d 7h 7s 8s 9s Ah 2h 3h 4h", "Kd")
    shown = knocked(table.knock(0, "Kd"))
    assert shown.gin
    assert sorted(shown.melds) == sorted(
        [cards("7c 7d 7h"), cards("7s 8s 9s"), cards("Ah 2h 3h 4h")]
    )


# 3h may join 3c 3d (a set) or 2h 4h (a run); either way the deadwood is 7.
AMBIGUOUS = "2h 3h 4h 3c 3d Ts Js Qs Ks As"


def test_unchosen_arrangement_has_lowest_deadwood_then_leaves_least_to_lay_off() -> None:
    # The defender holds 3s: showing the set 3c 3d 3h would let it go.
    table = drawn(AMBIGUOUS, "Kd", seat1="3s 6c 8c Tc Qh Kh 9d Td 7d 5c")
    shown = knocked(table.knock(0, "Kd"))
    assert shown.deadwood_count == 7
    assert cards("2h 3h 4h") in shown.melds
    # The defender holds 5h instead: now the run would take it, so the set is shown.
    table = drawn(AMBIGUOUS, "Kd", seat1="5h 6c 8c Tc Qh Kh 9d Td 7d 5c")
    shown = knocked(table.knock(0, "Kd"))
    assert cards("3c 3d 3h") in shown.melds


def test_the_knocker_may_choose_the_arrangement() -> None:
    table = drawn(AMBIGUOUS, "Kd", seat1="3s 6c 8c Tc Qh Kh 9d Td 7d 5c")
    shown = knocked(table.knock(0, "Kd", melds=["3c 3d 3h", "Ts Js Qs Ks"]))
    assert sorted(shown.melds) == sorted([cards("3c 3d 3h"), cards("Ts Js Qs Ks")])
    assert shown.deadwood == cards("As 2h 4h")
    assert table.state.phase is Phase.LAYOFF  # 3s fits the set the knocker chose to show


def test_a_chosen_arrangement_must_be_melds_within_the_knock_limit() -> None:
    table = drawn(AMBIGUOUS, "Kd")
    with pytest.raises(IllegalMove, match="is not a meld"):
        table.knock(0, "Kd", melds=["3c 3d 4h"])
    with pytest.raises(IllegalMove, match=r"^deadwood would be 16; the knock limit is 10$"):
        table.knock(0, "Kd", melds=["Ts Js Qs Ks"])
    with pytest.raises(IllegalMove, match="knock card"):
        table.knock(0, "Ks", melds=["Ts Js Qs Ks"])
    with pytest.raises(IllegalMove, match="cannot be in two melds"):
        table.knock(0, "Kd", melds=["3c 3d 3h", "2h 3h 4h"])
    with pytest.raises(IllegalMove, match="As Qs Ks is not a meld"):  # the ace is low only
        table.knock(0, "Kd", melds=["Qs Ks As"])


def test_gin_is_a_knock_with_no_deadwood_and_scores_deadwood_plus_gin_bonus() -> None:
    table = new_table(dealer=1)
    events = knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_5)
    assert knocked(events).gin
    scored = scored_in(events)
    assert (scored.outcome, scored.winner, scored.points) == ("gin", 0, 5 + 25)


BIG_GIN = "7c 7d 7h 7s 8s 9s Ah 2h 3h 4h"


def test_big_gin_goes_out_with_all_eleven_cards_without_a_discard() -> None:
    table = drawn(BIG_GIN, "5h")
    assert BigGin(seat=0) in legal_actions(table.state, 0)
    events = table.do(BigGin(seat=0))
    shown = knocked(events)
    assert shown.big_gin
    assert shown.card is None
    assert sum(len(meld) for meld in shown.melds) == 11
    scored = scored_in(events)
    assert (scored.outcome, scored.winner, scored.points) == ("big_gin", 0, 79 + 31)


def test_big_gin_refused_unless_all_eleven_cards_meld() -> None:
    table = drawn(BIG_GIN, "Kd")
    assert BigGin(seat=0) not in legal_actions(table.state, 0)
    with pytest.raises(IllegalMove, match="all 11 cards"):
        table.do(BigGin(seat=0))


# Gin three ways: Ac Ad Ah + As 2s 3s + 5h 6h 7h 8h. The defender's 9h would extend the
# run and its 4s the spade run, were they shown on a plain knock.
GIN_ANY_WAY = "Ac Ad Ah As 2s 3s 5h 6h 7h 8h"
GIN_DEFENDER = "9h 4s 2c 4c Qc Kc 6d 8d Td Qh"  # no meld: deadwood 73


def test_a_hand_that_melds_completely_is_gin_whatever_arrangement_the_knocker_names() -> None:
    # Named melds leave As 2s 3s out (deadwood 6, within the limit): it is gin all the same,
    # shown with the named melds and the left-out cards as a meld of their own.
    table = drawn(GIN_ANY_WAY, "Kd", seat1=GIN_DEFENDER)
    events = table.knock(0, "Kd", melds=["Ac Ad Ah", "5h 6h 7h 8h"])
    shown = knocked(events)
    assert (shown.gin, shown.deadwood, shown.deadwood_count) == (True, [], 0)
    assert sorted(shown.melds) == sorted(
        [cards("Ac Ad Ah"), cards("5h 6h 7h 8h"), cards("As 2s 3s")]
    )
    scored = scored_in(events)  # no layoffs onto gin: 9h and 4s count
    assert (scored.outcome, scored.winner, scored.points) == ("gin", 0, 73 + 25)
    assert scored.layoffs == []
    assert scored.knocker_deadwood == 0


@pytest.mark.parametrize(
    "melds",
    [
        ["Ac Ad Ah As", "5h 6h 7h 8h"],  # 2s 3s left out: they meld with no other card
        ["Ac Ad Ah"],  # 36 left out, over the knock limit
        ["As 2s 3s"],
        [],
    ],
)
def test_gin_cannot_be_declined_by_naming_an_arrangement_with_deadwood(melds: list[str]) -> None:
    table = drawn(GIN_ANY_WAY, "Kd", seat1=GIN_DEFENDER)
    events = table.knock(0, "Kd", melds=melds)
    shown = knocked(events)
    assert (shown.gin, shown.deadwood_count) == (True, 0)
    assert sum(len(meld) for meld in shown.melds) == 10
    assert scored_in(events).outcome == "gin"


def test_gin_is_not_forced_on_a_hand_that_cannot_meld_completely() -> None:
    table = drawn(AMBIGUOUS, "Kd", seat1=GIN_DEFENDER)
    shown = knocked(table.knock(0, "Kd", melds=["3c 3d 3h", "Ts Js Qs Ks"]))
    assert (shown.gin, shown.deadwood_count) == (False, 1 + 2 + 4)


def test_big_gin_whatever_arrangement_is_named() -> None:
    # Named melds leave Ah 2h 3h 4h 5h out: they meld by themselves and are shown so.
    table = drawn(BIG_GIN, "5h")
    shown = knocked(table.big_gin(0, melds=["7c 7d 7h", "7s 8s 9s"]))
    assert (shown.big_gin, shown.deadwood, shown.deadwood_count) == (True, [], 0)
    assert sorted(shown.melds) == sorted(
        [cards("7c 7d 7h"), cards("7s 8s 9s"), cards("Ah 2h 3h 4h 5h")]
    )
    # 8s 9s left out cannot meld alone: the hand is shown as it melds completely.
    table = drawn(BIG_GIN, "5h")
    events = table.big_gin(0, melds=["7c 7d 7h 7s", "Ah 2h 3h 4h 5h"])
    shown = knocked(events)
    assert (shown.big_gin, shown.deadwood_count) == (True, 0)
    assert sum(len(meld) for meld in shown.melds) == 11
    assert scored_in(events).outcome == "big_gin"


def test_big_gin_is_shown_as_named_when_the_hand_melds_completely_more_than_one_way() -> None:
    hand = "5s 5d 5c 5h As 2s 3s 4s 6s 7s"  # with 8s: 5c 5d 5h and As to 8s, or as named
    assert knocked(drawn(hand, "8s").big_gin(0)).melds == [
        cards("5c 5d 5h"),
        cards("As 2s 3s 4s 5s 6s 7s 8s"),
    ]
    named = knocked(drawn(hand, "8s").big_gin(0, melds=["As 2s 3s 4s", "6s 7s 8s", "5s 5d 5c 5h"]))
    assert named.melds == [cards("5c 5d 5h 5s"), cards("As 2s 3s 4s"), cards("6s 7s 8s")]


def test_big_gin_with_a_named_arrangement_refused_unless_all_eleven_cards_meld() -> None:
    table = drawn(BIG_GIN, "Kd")
    with pytest.raises(IllegalMove, match="all 11 cards"):
        table.big_gin(0, melds=["7c 7d 7h 7s", "Ah 2h 3h 4h"])


def test_the_card_taken_from_the_pile_cannot_be_the_knock_card() -> None:
    # Seat 0 takes the upcard 2d: knocking with it (deadwood 10) would put it straight back.
    table = deal(seat0="As 2s 3s 4h 5h 6h 7c 8c 9c Kd", seat1=DEFENDER, upcard="2d", dealer=1)
    table.take_upcard(0)
    knocks = {a.card for a in legal_actions(table.state, 0) if isinstance(a, Knock)}
    assert knocks == {"Kd"}
    message = r"^you took 2d from the pile and cannot knock with it this turn$"
    with pytest.raises(IllegalMove, match=message):
        table.knock(0, "2d")
    with pytest.raises(IllegalMove, match=message):
        table.knock(0, "2d", melds=["As 2s 3s", "4h 5h 6h", "7c 8c 9c"])
    shown = knocked(table.knock(0, "Kd"))
    assert (shown.card, shown.deadwood) == ("Kd", ["2d"])
