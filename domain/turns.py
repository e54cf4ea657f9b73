"""Deciding the ordinary turn: the upcard offer, the draw and the discard (and the wall)."""

from __future__ import annotations

from domain.cards import CARD_NAMES, cards_of, names
from domain.commands import Discard, DrawFromDiscard, DrawFromStock, PassUpcard, TakeUpcard
from domain.errors import IllegalMove
from domain.events import Discarded, Drew, Event, HandDrawn, UpcardPassed
from domain.guards import (
    checked_card,
    checked_seat,
    require_held,
    require_not_from_pile,
    require_turn,
)
from domain.state import HandState, Phase

# The last two cards of the stock are never drawn.
WALL = 2


def take_upcard(state: HandState, command: TakeUpcard) -> list[Event]:
    seat = checked_seat(command.seat)
    require_turn(state, seat, Phase.OFFER, "take the upcard")
    if state.upcard_passes == 2:
        raise IllegalMove("both players passed the upcard: draw from the stock")
    return [Drew(seat=seat, source="discard", card=CARD_NAMES[state.pile[-1]])]


def pass_upcard(state: HandState, command: PassUpcard) -> list[Event]:
    seat = checked_seat(command.seat)
    require_turn(state, seat, Phase.OFFER, "pass the upcard")
    if state.upcard_passes == 2:
        raise IllegalMove("both players passed the upcard: draw from the stock")
    return [UpcardPassed(seat=seat)]


def draw_from_stock(state: HandState, command: DrawFromStock) -> list[Event]:
    seat = checked_seat(command.seat)
    if state.phase is Phase.OFFER and state.turn == seat:
        if state.upcard_passes < 2:
            raise IllegalMove("the upcard is offered to you: take it or pass")
    else:
        require_turn(state, seat, Phase.DRAW, "draw")
    return [Drew(seat=seat, source="stock", card=CARD_NAMES[state.stock[state.stock_next]])]


def draw_from_discard(state: HandState, command: DrawFromDiscard) -> list[Event]:
    seat = checked_seat(command.seat)
    if state.phase is Phase.OFFER and state.turn == seat:
        raise IllegalMove(
            "take or pass the upcard first"
            if state.upcard_passes < 2
            else "both players passed the upcard: draw from the stock"
        )
    require_turn(state, seat, Phase.DRAW, "draw")
    return [Drew(seat=seat, source="discard", card=CARD_NAMES[state.pile[-1]])]


def discard(state: HandState, command: Discard) -> list[Event]:
    seat = checked_seat(command.seat)
    card = checked_card(command.card)
    require_turn(state, seat, Phase.DISCARD, "discard")
    require_held(state, seat, card)
    require_not_from_pile(state, card)
    events: list[Event] = [Discarded(seat=seat, card=CARD_NAMES[card])]
    if state.stock_left == WALL:
        hands = [names(cards_of(hand)) for hand in state.hands]
        hands[seat].remove(CARD_NAMES[card])
        events.append(HandDrawn(dealer=_dealer(state), hands=hands))
    return events


def _dealer(state: HandState) -> int:
    assert state.dealer is not None
    return state.dealer
