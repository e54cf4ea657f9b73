"""The EAAI-2021 challenge's simple player, from its description.

It knows only its own hand. It takes the face-up card (the upcard offer or the pile's top)
when that card would make a set or a run with its hand, and otherwise draws from the stock.
It discards uniformly at random among the cards whose removal leaves the least deadwood,
never the card just taken from the pile and never repeating a (drawn card, discarded card)
pair it already played this hand, which keeps it from passing one card back and forth. It
knocks as soon as it may (gin at no deadwood) and never declares big gin.

The pairs are remembered between calls, so one instance plays one seat.
"""

from __future__ import annotations

import random

from domain.cards import Card, Mask, mask_of, parse_cards
from domain.commands import Command, DrawFromDiscard, DrawFromStock, PassUpcard, TakeUpcard
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
from service.bots.neighbours import in_some_meld
from service.bots.references.hand_maths import face_up, least_deadwood_discards


class EaaiSimple:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._stock_size = -1  # as last seen: it only shrinks within a hand
        self._before_draw: Mask = 0
        self._played: set[tuple[Card, Card]] = set()

    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        if view.stock_size > self._stock_size:
            self._played.clear()
        self._stock_size = view.stock_size
        hand = mask_of(parse_cards(view.hand))
        if view.phase in (Phase.OFFER, Phase.DRAW):
            self._before_draw = hand
            card = face_up(view)
            wanted = card is not None and in_some_meld(hand, card)
            for kind in (TakeUpcard, DrawFromDiscard) if wanted else (PassUpcard, DrawFromStock):
                action = first_of(view, kind)
                if action is not None:
                    return action
            return DrawFromStock(seat=view.seat)
        if view.phase is Phase.DISCARD:
            return self._discard_or_knock(view, hand)
        return between_hands(view)

    def _discard_or_knock(self, view: SeatView, hand: Mask) -> Command:
        new = hand & ~self._before_draw
        drawn = new.bit_length() - 1 if new.bit_count() == 1 else -1
        allowed = discardable(view)
        fresh = [card for card in allowed if (drawn, card) not in self._played]
        card = self._rng.choice(least_deadwood_discards(hand, fresh or allowed))
        self._played.add((drawn, card))
        if card in knockable(view):
            return knock_with(view, card)
        return discard(view, card)
