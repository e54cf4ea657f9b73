"""Hands the opponent may hold, drawn from what this seat has seen.

The cards it took from the pile are surely held; the rest are drawn from the unseen cards,
each weighted by how likely the opponent holds it (``opponent_melds.holding_chances``). An
opponent does not hold ten random cards, though: it has drawn from the stock turn after turn
and kept what melds. So each sample is dealt as many extra cards as the opponent is likely to
have drawn from the stock, and throws its worst card after each, as a player keeping the least
deadwood would. A hand with no more deadwood than the knock limit is redrawn a few times: an
opponent holding one after its discard would likely have knocked.
"""

from __future__ import annotations

import random

from domain.cards import Card, Mask, cards_of, value_of
from domain.melds import best_arrangement, min_deadwood
from service.bots.card_memory import CardMemory
from service.bots.opponent_melds import Chances

REDRAWS = 4  # tries at a hand that would not have knocked, before taking what came
FULL_STOCK = 31  # the stock after the deal


def sample_hands(
    memory: CardMemory, chances: Chances, rng: random.Random, count: int
) -> list[Mask]:
    unseen = list(cards_of(memory.unseen))
    wanted = min(memory.opponent_unknown, len(unseen))
    drawn = min((FULL_STOCK - memory.stock_size) // 2, len(unseen) - wanted)
    weights = {card: 1.0 / max(chances[card], 1e-6) for card in unseen}
    hands = []
    for _ in range(count):
        for _ in range(REDRAWS):
            # Weighted sampling without replacement: the largest keys u ** (1 / weight).
            keyed = sorted(unseen, key=lambda card: rng.random() ** weights[card])
            picked = keyed[len(keyed) - wanted - drawn :]
            hand = memory.opponent_took | sum(1 << card for card in picked[drawn:])
            for card in picked[:drawn]:
                hand = _keep_best(hand | 1 << card, protected=memory.opponent_took)
            if min_deadwood(hand) > memory.knock_limit:
                break
        hands.append(hand)
    return hands


def _keep_best(hand: Mask, protected: Mask) -> Mask:
    """``hand`` less its highest unmelded card (one the opponent is not known to hold), as a
    player keeping the least deadwood throws."""
    loose = best_arrangement(hand).deadwood & ~protected
    if not loose:
        return hand
    worst: Card = max(cards_of(loose), key=value_of)
    return hand ^ 1 << worst
