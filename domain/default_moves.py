"""The move the server makes for a seat whose time ran out, chosen from that seat's view alone
(docs/rules.md, "Clocks and timeouts"): it keeps the hand's shape and never goes out.

- choosing the dealer: the opponent deals;
- the upcard offer: pass it (or, once both passed, draw from the stock);
- the draw: draw from the stock;
- after the draw: discard the card that leaves the least deadwood, the highest-valued of
  those, then the highest in card order (never knock or go big gin);
- laying off: finish, which makes the best remaining layoffs.
"""

from __future__ import annotations

from domain.cards import mask_of, parse_card, parse_cards, rank_of, value_of
from domain.commands import (
    ChooseDealer,
    Discard,
    DrawFromStock,
    FinishLayoff,
    PassUpcard,
    SeatCommand,
)
from domain.errors import IllegalMove
from domain.melds import min_deadwood
from domain.state import Phase
from domain.views import SeatView


def default_move(seat_view: SeatView) -> SeatCommand:
    seat, phase = seat_view.seat, seat_view.phase
    if seat_view.turn != seat:
        raise IllegalMove(f"seat {seat} is not to act, so it has no default move")
    if phase is Phase.CHOOSE_DEALER:
        return ChooseDealer(seat=seat, dealer=1 - seat)
    if phase is Phase.OFFER:
        return DrawFromStock(seat=seat) if seat_view.upcard_passes == 2 else PassUpcard(seat=seat)
    if phase is Phase.DRAW:
        return DrawFromStock(seat=seat)
    if phase is Phase.DISCARD:
        return Discard(seat=seat, card=_least_deadwood_discard(seat_view))
    if phase is Phase.LAYOFF:
        return FinishLayoff(seat=seat)
    raise IllegalMove(f"nobody chooses a move in the {phase} phase")


def _least_deadwood_discard(seat_view: SeatView) -> str:
    hand = mask_of(parse_cards(seat_view.hand))
    allowed = [a.card for a in seat_view.legal_actions if isinstance(a, Discard)]

    def preference(name: str) -> tuple[int, int, int, int]:
        card = parse_card(name)
        return (min_deadwood(hand & ~(1 << card)), -value_of(card), -rank_of(card), -card)

    return min(allowed, key=preference)
