"""RULES.md "A turn" and "The wall (stock running out)"."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domain.cards import parse_card
from domain.commands import Discard, DrawFromDiscard, DrawFromStock, Knock
from domain.errors import IllegalMove
from domain.events import Discarded, Drew, HandDrawn, Knocked
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import Phase
from tests.unit.helpers import Table, deal

SEAT0 = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"
SEAT1 = "2c 3c 4c 7d 8d 9h Th Jh Kc Ks"


def after_both_passed() -> Table:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8s Jd", dealer=1)
    table.pass_upcard(0)
    table.pass_upcard(1)
    return table


def drawn_card(events: Sequence[object]) -> str:
    (drew,) = events
    assert isinstance(drew, Drew)
    assert drew.card is not None
    return drew.card


def test_a_turn_begins_with_exactly_one_draw() -> None:
    table = after_both_passed()
    table.draw_stock(0)
    table.discard(0, "Qh")
    assert legal_actions(table.state, 1) == [DrawFromStock(seat=1), DrawFromDiscard(seat=1)]
    with pytest.raises(IllegalMove, match="draw first"):
        table.discard(1, "Ks")
    table.draw_stock(1)
    with pytest.raises(IllegalMove, match="drew and must now discard"):
        table.draw_stock(1)
    with pytest.raises(IllegalMove):
        table.draw_pile(1)


def test_draw_from_the_stock_takes_its_top_card() -> None:
    table = after_both_passed()
    assert table.draw_stock(0) == [Drew(seat=0, source="stock", card="Qh")]
    table.discard(0, "Qh")
    assert table.draw_stock(1) == [Drew(seat=1, source="stock", card="8s")]


def test_draw_from_the_pile_takes_its_top_card() -> None:
    table = after_both_passed()
    table.draw_stock(0)
    table.discard(0, "Kd")
    assert table.draw_pile(1) == [Drew(seat=1, source="discard", card="Kd")]
    assert table.state.pile == (parse_card("5c"),)


def test_a_turn_ends_with_a_discard_face_up_on_the_pile() -> None:
    table = after_both_passed()
    table.draw_stock(0)
    assert table.discard(0, "Qh") == [Discarded(seat=0, card="Qh")]
    assert table.state.pile[-1] == parse_card("Qh")
    assert (table.state.phase, table.state.turn) == (Phase.DRAW, 1)


def test_the_card_taken_from_the_pile_cannot_be_discarded_that_turn() -> None:
    table = after_both_passed()
    table.draw_stock(0)
    table.discard(0, "Kd")
    table.draw_pile(1)
    assert Discard(seat=1, card="Kd") not in legal_actions(table.state, 1)
    with pytest.raises(IllegalMove, match="you took Kd from the pile and cannot discard it"):
        table.discard(1, "Kd")
    with pytest.raises(IllegalMove, match="you took Kd from the pile"):
        table.knock(1, "Kd")


def test_the_card_taken_from_the_pile_may_be_discarded_on_a_later_turn() -> None:
    table = after_both_passed()
    table.draw_stock(0)
    table.discard(0, "Kd")
    table.draw_pile(1)
    table.discard(1, "Ks")
    table.draw_stock(0)
    table.discard(0, "Qh")
    table.draw_stock(1)
    assert table.discard(1, "Kd") == [Discarded(seat=1, card="Kd")]


def play_to_the_wall(table: Table) -> str:
    """Both players draw from the stock and throw the card back until two are left; the
    last card drawn is returned, not yet discarded."""
    while True:
        seat = table.state.turn
        assert seat is not None
        card = drawn_card(table.draw_stock(seat))
        if table.state.stock_left == 2:
            return card
        table.discard(seat, card)


def test_the_wall_is_a_drawn_hand_and_the_same_dealer_deals_again() -> None:
    table = after_both_passed()
    last = play_to_the_wall(table)
    assert table.state.turn == 0
    events = table.discard(0, last)
    assert isinstance(events[-1], HandDrawn)
    assert events[-1].dealer == 1
    assert table.state.phase is Phase.DEAL
    assert table.state.turn is None  # nobody plays until the next deal
    assert table.state.deals == 1
    assert table.state.hand_points == (0, 0)
    assert table.state.dealer == 1
    table.deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", dealer=1)
    assert table.state.turn == 0
    assert table.state.hand == 2
    assert table.state.deals == 2


def test_the_wall_is_dealt_again_by_the_same_dealer_even_when_the_deal_alternates() -> None:
    options = RuleOptions(next_dealer="alternate")
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8s Jd", dealer=1, options=options)
    table.pass_upcard(0)
    table.pass_upcard(1)
    events = table.discard(0, play_to_the_wall(table))
    assert isinstance(events[-1], HandDrawn)
    assert table.state.dealer == 1


def test_the_last_two_cards_of_the_stock_are_never_drawn() -> None:
    table = after_both_passed()
    last = play_to_the_wall(table)
    table.discard(0, last)
    assert table.state.stock_left == 2
    assert legal_actions(table.state, 1) == []
    with pytest.raises(IllegalMove):
        table.draw_stock(1)


def test_a_knock_is_still_allowed_with_two_cards_left_in_the_stock() -> None:
    table = after_both_passed()
    last = play_to_the_wall(table)
    assert Knock(seat=0, card=last) in legal_actions(table.state, 0)
    events = table.knock(0, last)
    assert isinstance(events[0], Knocked)
    assert not any(isinstance(event, HandDrawn) for event in events)
