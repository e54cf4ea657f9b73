"""Hands the opponent may hold, drawn from what this seat has seen.

The cards it took from the pile are surely held; the rest are drawn from the unseen cards,
each weighted by how likely the opponent holds it (``opponent_melds.holding_chances``). A hand
with no more deadwood than the knock limit is redrawn a few times: an opponent holding one
after its discard would likely have knocked.
"""

from __future__ import annotations

import random

from domain.cards import Mask, cards_of
from domain.melds import min_deadwood
from service.bots.card_memory import CardMemory
from service.bots.opponent_melds import Chances

REDRAWS = 4  # tries at a hand that would not have knocked, before taking what came


def sample_hands(
    memory: CardMemory, chances: Chances, rng: random.Random, count: int
) -> list[Mask]:
    unseen = list(cards_of(memory.unseen))
    wanted = min(memory.opponent_unknown, len(unseen))
    weights = {card: 1.0 / max(chances[card], 1e-6) for card in unseen}
    hands = []
    for _ in range(count):
        for _ in range(REDRAWS):
            # Weighted sampling without replacement: the largest keys u ** (1 / weight).
            keyed = sorted(unseen, key=lambda card: rng.random() ** weights[card])
            hand = memory.opponent_took | sum(1 << card for card in keyed[len(keyed) - wanted :])
            if min_deadwood(hand) > memory.knock_limit:
                break
        hands.append(hand)
    return hands
