"""OpenSpiel's simple gin rummy bot, from its description.

It takes the face-up card if that lets it knock at once or if the card belongs to a best
(least deadwood) meld group of its hand with the card; otherwise it draws from the stock. It
knocks whenever it can, with the card leaving the least deadwood (gin at none); otherwise it
discards the highest deadwood card of a best meld group. It never declares big gin: it goes
out with gin instead. It makes no random choice.
"""

from __future__ import annotations

from domain.cards import Card, Mask, cards_of, mask_of, parse_cards, value_of
from domain.commands import Command, DrawFromDiscard, DrawFromStock, PassUpcard, TakeUpcard
from domain.melds import best_arrangement, min_deadwood
from domain.state import Phase
from domain.views import SeatView
from service.bots.actions import (
    between_hands,
    discard,
    discardable,
    first_of,
    knock_with,
    knockable,
    require_a_move,
)
from service.bots.references.hand_maths import face_up, least_deadwood_discards


class OpenSpielSimple:
    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        hand = mask_of(parse_cards(view.hand))
        if view.phase in (Phase.OFFER, Phase.DRAW):
            card = face_up(view)
            wanted = card is not None and _wanted(hand, card, view.knock_limit)
            for kind in (TakeUpcard, DrawFromDiscard) if wanted else (PassUpcard, DrawFromStock):
                action = first_of(view, kind)
                if action is not None:
                    return action
            return DrawFromStock(seat=view.seat)
        if view.phase is Phase.DISCARD:
            knocks = knockable(view)
            if knocks:
                return knock_with(view, min(knocks, key=lambda c: min_deadwood(hand ^ 1 << c)))
            return discard(view, _highest_deadwood(hand, discardable(view)))
        return between_hands(view)


def _wanted(hand: Mask, card: Card, knock_limit: int) -> bool:
    held = hand | 1 << card
    # The face-up card may not be knocked with, so a knock keeps it: put aside another card.
    knocks = min(min_deadwood(held ^ 1 << other) for other in cards_of(hand)) <= knock_limit
    return knocks or any(meld >> card & 1 for meld in best_arrangement(held).melds)


def _highest_deadwood(hand: Mask, allowed: list[Card]) -> Card:
    """The highest unmelded card of a best meld group it may throw; when every unmelded card
    is the one just taken, the card leaving the least deadwood."""
    unmelded = best_arrangement(hand).deadwood
    loose = [card for card in allowed if unmelded >> card & 1]
    if loose:
        return max(loose, key=lambda card: (value_of(card), card))
    return max(least_deadwood_discards(hand, allowed), key=lambda card: (value_of(card), card))
