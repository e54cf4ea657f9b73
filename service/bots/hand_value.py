"""How good a hand is: what its deadwood may become after the next draw."""

from __future__ import annotations

from domain.cards import VALUES, Mask, cards_of
from domain.melds import min_deadwood, min_deadwood_after_discard
from service.bots.neighbours import near


def expected_deadwood(hand: Mask, unseen: Mask) -> float:
    """The mean deadwood of ``hand`` after drawing one of the ``unseen`` cards (each as
    likely) and discarding the best card. Counting what every draw would do rewards pairs,
    near-runs and low cards by what they are worth, not by a rule of thumb."""
    count = unseen.bit_count()
    if not count:
        return float(min_deadwood(hand))
    linked = unseen & near(hand)
    total = sum(min_deadwood_after_discard(hand | 1 << card) for card in cards_of(linked))
    # A card that melds with nothing held is thrown back or kept in place of the worst card.
    now, best_nine = min_deadwood(hand), min_deadwood_after_discard(hand)
    total += sum(min(now, VALUES[card] + best_nine) for card in cards_of(unseen & ~linked))
    return total / count
