"""How good a hand is: what its deadwood may become after the next draw."""

from __future__ import annotations

from domain.cards import VALUES, Mask, cards_of
from domain.melds import min_deadwood, min_deadwood_after_discard
from service.bots.neighbours import near


def expected_deadwood(hand: Mask, unseen: Mask, limit: int = 10, unready: float = 0.0) -> float:
    """The mean deadwood of ``hand`` after drawing one of the ``unseen`` cards (each as
    likely) and discarding the best card, counting ``unready`` more when that deadwood is
    still over the knock ``limit``. Counting what every draw would do rewards pairs,
    near-runs and low cards by what they are worth, not by a rule of thumb."""
    count = unseen.bit_count()
    if not count:
        return float(min_deadwood(hand))
    linked = unseen & near(hand)
    total = 0.0
    for card in cards_of(linked):
        deadwood = min_deadwood_after_discard(hand | 1 << card)
        total += deadwood + unready if deadwood > limit else deadwood
    # A card that melds with nothing held is thrown back or kept in place of the worst card.
    now, best_nine = min_deadwood(hand), min_deadwood_after_discard(hand)
    for card in cards_of(unseen & ~linked):
        deadwood = min(now, VALUES[card] + best_nine)
        total += deadwood + unready if deadwood > limit else deadwood
    return total / count
