"""RLCard's novice gin rummy rule agent, from its description.

It goes gin if it can; else it knocks if it can, with a random one of its legal knock cards;
else it discards uniformly at random among the cards whose discard leaves the least deadwood.
Every other choice (the upcard offer, the stock or the pile) is uniformly random among the
legal ones. It never declares big gin: it goes out with gin instead.
"""

from __future__ import annotations

import random

from domain.cards import mask_of, parse_cards
from domain.commands import Command
from domain.melds import min_deadwood
from domain.state import Phase
from domain.views import SeatView
from service.bots.actions import (
    between_hands,
    discard,
    discardable,
    knock_with,
    knockable,
    require_a_move,
)
from service.bots.references.hand_maths import least_deadwood_discards


class RlcardNovice:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        if view.phase in (Phase.OFFER, Phase.DRAW):
            return self._rng.choice(view.legal_actions)
        if view.phase is not Phase.DISCARD:
            return between_hands(view)
        hand = mask_of(parse_cards(view.hand))
        knocks = knockable(view)
        gins = [card for card in knocks if min_deadwood(hand ^ 1 << card) == 0]
        if gins or knocks:
            return knock_with(view, self._rng.choice(gins or knocks))
        return discard(view, self._rng.choice(least_deadwood_discards(hand, discardable(view))))
