"""Which cards could ever share a meld with a card: the other three of its rank, and the
cards one or two ranks away in its suit; and whether a card makes a meld with a hand."""

from __future__ import annotations

from domain.cards import DECK_SIZE, Card, Mask, cards_of
from domain.melds import ALL_MELDS


def _neighbours(card: Card) -> Mask:
    suit, rank = divmod(card, 13)
    mask = sum(1 << (rank + 13 * other) for other in range(4) if other != suit)
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step <= 12:
            mask |= 1 << card + step
    return mask


NEIGHBOURS: tuple[Mask, ...] = tuple(_neighbours(card) for card in range(DECK_SIZE))


def near(cards: Mask) -> Mask:
    """Every card that could share a meld with one of ``cards``."""
    mask = 0
    for card in cards_of(cards):
        mask |= NEIGHBOURS[card]
    return mask


MELDS_WITH: tuple[tuple[Mask, ...], ...] = tuple(
    tuple(meld for meld in ALL_MELDS if meld >> card & 1) for card in range(DECK_SIZE)
)


def in_some_meld(hand: Mask, card: Card) -> bool:
    """Whether ``card`` would make a set or a run with cards of ``hand``."""
    held = hand | 1 << card
    return any(meld & held == meld for meld in MELDS_WITH[card])
