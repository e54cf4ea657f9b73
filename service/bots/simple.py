"""The simple level: greedy on deadwood, one card at a time.

It takes the upcard or the pile's top card when that lowers its deadwood or joins a meld
(otherwise it draws from the stock), throws the highest deadwood card it may, knocks as soon
as the rules allow, and leaves the layoffs to the rules' best choice.
"""

from __future__ import annotations

from domain.cards import Card, Mask, cards_of, parse_card, value_of
from domain.commands import (
    BigGin,
    Command,
    DrawFromDiscard,
    DrawFromStock,
    Knock,
    PassUpcard,
    TakeUpcard,
)
from domain.melds import best_arrangement, min_deadwood
from domain.state import Phase
from domain.views import SeatView
from service.bots.actions import (
    between_hands,
    discard,
    discardable,
    first_of,
    legal_of,
    require_a_move,
)
from service.bots.card_memory import read_view


class SimpleBot:
    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        if view.phase is Phase.DISCARD:
            return self._go_out_or_discard(view)
        if view.phase in (Phase.OFFER, Phase.DRAW):
            return self._draw(view)
        return between_hands(view)

    def _draw(self, view: SeatView) -> Command:
        memory = read_view(view)
        wanted = memory.top is not None and improves(memory.hand, memory.top)
        for kind in (TakeUpcard, DrawFromDiscard) if wanted else (PassUpcard, DrawFromStock):
            action = first_of(view, kind)
            if action is not None:
                return action
        return DrawFromStock(seat=view.seat)

    def _go_out_or_discard(self, view: SeatView) -> Command:
        big_gin = first_of(view, BigGin)
        if big_gin is not None:
            return big_gin
        hand = read_view(view).hand
        knocks = legal_of(view, Knock)
        if knocks:
            return min(knocks, key=lambda knock: min_deadwood(hand ^ 1 << parse_card(knock.card)))
        return discard(view, highest_deadwood(hand, discardable(view)))


def improves(hand: Mask, card: Card) -> bool:
    """Taking ``card`` lowers the deadwood (keeping it) or puts it in a meld."""
    held = hand | 1 << card
    after = min(min_deadwood(held ^ 1 << other) for other in cards_of(hand))
    in_meld = any(meld >> card & 1 for meld in best_arrangement(held).melds)
    return after < min_deadwood(hand) or in_meld


def highest_deadwood(hand: Mask, allowed: list[Card]) -> Card:
    """The card whose discard leaves the least deadwood; among equals, the highest."""
    return min(allowed, key=lambda card: (min_deadwood(hand ^ 1 << card), -value_of(card), -card))
