"""Guessing at the opponent's melds: how likely it holds each card, how useful a discard
would be to it, and how much it could lay off onto a knocker's melds.

A card the opponent took from the pile is surely held, and it likely melds around it, so the
cards that would meld with it are more likely held. A pile card the opponent threw or passed
over says it did not hold the two cards that would have melded with it, then.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from domain.cards import DECK_SIZE, Card, Mask, cards_of, value_of
from service.bots.card_memory import CardMemory
from service.bots.neighbours import NEIGHBOURS

Chances = list[float]  # by card: the chance the opponent holds it

# How much likelier a card is held when it would meld with a card the opponent took.
NEAR_TAKEN = 2.0
# How much less likely a pair is held when the opponent passed over the card it lacked.
PASSED_OVER = 0.3


def _partners(card: Card) -> tuple[tuple[Card, Card, Mask], ...]:
    """The pairs of cards that make a meld with ``card``, each with the cards that would make
    a meld with the pair in its place."""
    suit, rank = divmod(card, 13)
    pairs: list[tuple[Card, Card, Mask]] = []
    same_rank = [rank + 13 * other for other in range(4) if other != suit]
    for a, b in combinations(same_rank, 2):
        (fourth,) = set(same_rank) - {a, b}
        pairs.append((a, b, 1 << fourth))
    for low, high, beyond in ((-2, -1, -3), (-1, 1, None), (1, 2, 3)):
        if rank + low >= 0 and rank + high <= 12:
            ends = 1 << card + beyond if beyond is not None and 0 <= rank + beyond <= 12 else 0
            pairs.append((card + low, card + high, ends))
    return tuple(pairs)


PARTNERS = tuple(_partners(card) for card in range(DECK_SIZE))


def holding_chances(memory: CardMemory) -> Chances:
    chances = [0.0] * DECK_SIZE
    share = memory.opponent_share
    near_taken = 0
    for card in cards_of(memory.opponent_took):
        chances[card] = 1.0
        near_taken |= NEIGHBOURS[card]
    for card in cards_of(memory.unseen):
        chances[card] = min(1.0, share * NEAR_TAKEN) if near_taken >> card & 1 else share
    return chances


def usefulness(card: Card, chances: Chances, declined: Mask) -> float:
    """The chance that ``card`` would make a meld in the opponent's hand."""
    missed = 1.0
    for a, b, instead in PARTNERS[card]:
        both = chances[a] * chances[b]
        if both:
            missed *= 1.0 - (both * PASSED_OVER if instead & declined else both)
    return 1.0 - missed


def expected_layoffs(melds: Sequence[Mask], chances: Chances) -> float:
    """The deadwood the opponent may lay off onto these melds, on average: the fourth card of
    a three-card set, and up to two cards beyond either end of a run."""
    total = 0.0
    for meld in melds:
        cards = list(cards_of(meld))
        if cards[-1] - cards[0] < 13:  # one suit: a run
            total += _beyond_run(cards[0], -1, chances) + _beyond_run(cards[-1], 1, chances)
        elif len(cards) == 3:
            (fourth,) = {cards[0] % 13 + 13 * suit for suit in range(4)} - set(cards)
            total += value_of(fourth) * chances[fourth]
    return total


def _beyond_run(end: Card, step: int, chances: Chances) -> float:
    total, reach = 0.0, 1.0
    for distance in (1, 2):
        if not 0 <= end % 13 + step * distance <= 12:
            break
        card = end + step * distance
        reach *= chances[card]
        total += value_of(card) * reach
    return total
