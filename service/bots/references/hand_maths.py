"""The little card maths the reference opponents share."""

from __future__ import annotations

from domain.cards import Card, Mask, parse_card
from domain.melds import ALL_MELDS, min_deadwood
from domain.views import SeatView


def in_some_meld(hand: Mask, card: Card) -> bool:
    """Whether ``card`` would make a set or a run with cards of ``hand``."""
    held = hand | 1 << card
    return any(meld >> card & 1 and meld & held == meld for meld in ALL_MELDS)


def least_deadwood_discards(hand: Mask, allowed: list[Card]) -> list[Card]:
    """The ``allowed`` cards whose discard leaves ``hand`` the least deadwood."""
    left = {card: min_deadwood(hand ^ 1 << card) for card in allowed}
    floor = min(left.values())
    return [card for card in allowed if left[card] == floor]


def face_up(view: SeatView) -> Card | None:
    """The card this seat may take from the pile now, if any."""
    return parse_card(view.discard_pile[-1]) if view.discard_pile else None
