"""Checks every command goes through: well formed first, then allowed now.

A malformed command raises ``InvalidCommand`` (or ``InvalidNotation``); a well-formed one the
rules refuse raises ``IllegalMove`` (``NotYourTurn``, ``MatchOver``). Messages never name a
card the asking seat may not know.
"""

from __future__ import annotations

from domain.cards import Card, Mask, card_name, mask_of, parse_card, parse_cards
from domain.errors import IllegalMove, InvalidCommand, MatchOver, NotYourTurn
from domain.state import HandState, Phase


def checked_seat(seat: object) -> int:
    if type(seat) is not int or seat not in (0, 1):
        raise InvalidCommand("seat must be 0 or 1")
    return seat


def checked_card(text: object) -> Card:
    return parse_card(text)  # type: ignore[arg-type]  # parse_card refuses non-text itself


def require_turn(state: HandState, seat: int, phase: Phase, doing: str) -> None:
    """``seat`` may act in ``phase``, where acting means ``doing`` (e.g. "discard")."""
    if state.phase is Phase.MATCH_OVER:
        raise MatchOver("the match is over")
    if state.turn is None:
        raise IllegalMove(f"you cannot {doing} now: {waiting_for(state, seat)}")
    if state.turn != seat:
        raise NotYourTurn(f"it is not your turn: seat {state.turn} is to play")
    if state.phase is not phase:
        raise IllegalMove(f"you cannot {doing} now: {waiting_for(state, seat)}")


def require_system_phase(state: HandState, phase: Phase, doing: str) -> None:
    if state.phase is Phase.MATCH_OVER:
        raise MatchOver("the match is over")
    if state.phase is not phase:
        raise IllegalMove(f"cannot {doing} now: {waiting_for(state)}")


def require_held(state: HandState, seat: int, card: Card) -> Mask:
    """The seat's hand, which must hold ``card``."""
    hand = state.hands[seat]
    if not hand >> card & 1:
        raise IllegalMove(f"you do not hold {card_name(card)}")
    return hand


def require_not_from_pile(state: HandState, card: Card, doing: str = "discard it") -> None:
    """The card just taken from the pile may not go back this turn: neither discarded nor
    put face down as the knock card (``doing``: "discard it", "knock with it")."""
    if card == state.pile_card:
        raise IllegalMove(f"you took {card_name(card)} from the pile and cannot {doing} this turn")


def waiting_for(state: HandState, seat: int | None = None) -> str:
    """What the match waits for, in a player's words, addressed to ``seat``."""
    phase, turn = state.phase, state.turn
    who = "you" if turn is not None and turn == seat else f"seat {turn}"
    if phase is Phase.START:
        return "the match has not been created yet"
    if phase is Phase.CUT:
        return "the players have not cut for the first deal yet"
    if phase is Phase.CHOOSE_DEALER:
        return f"{who} won the cut and must choose who deals"
    if phase is Phase.DEAL:
        return "the next hand has not been dealt yet"
    if phase is Phase.OFFER:
        if state.upcard_passes == 2:
            return f"both passed the upcard, so {who} must draw from the stock"
        return f"the upcard is offered to {who}: take it or pass"
    if phase is Phase.DRAW:
        return f"{who} must draw first, from the stock or the pile"
    if phase is Phase.DISCARD:
        return f"{who} drew and must now discard or knock"
    if phase is Phase.LAYOFF:
        return f"{who} must lay off onto the knocker's melds or finish laying off"
    return "the match is over"


def checked_melds(melds: object) -> list[Mask] | None:
    """A player's chosen melds: a list of lists of cards in notation, or None."""
    if melds is None:
        return None
    if not isinstance(melds, list | tuple) or not all(isinstance(m, list | tuple) for m in melds):
        raise InvalidCommand('melds must be a list of lists of cards, e.g. [["7h", "8h", "9h"]]')
    return [mask_of(parse_cards(meld)) for meld in melds]
