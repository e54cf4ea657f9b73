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
