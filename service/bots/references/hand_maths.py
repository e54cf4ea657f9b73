"""The little card maths the reference opponents share."""

from __future__ import annotations

from domain.cards import Card, Mask, parse_card
from domain.melds import min_deadwood
from domain.views import SeatView


def least_deadwood_discards(hand: Mask, allowed: list[Card]) -> list[Card]:
    """The ``allowed`` cards whose discard leaves ``hand`` the least deadwood."""
    left = {card: min_deadwood(hand ^ 1 << card) for card in allowed}
    floor = min(left.values())
    return [card for card in allowed if left[card] == floor]


def face_up(view: SeatView) -> Card | None:
    """The card this seat may take from the pile now, if any."""
    return parse_card(view.discard_pile[-1]) if view.discard_pile else None
