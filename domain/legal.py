"""``legal_actions(state, seat)``: exactly the commands ``decide`` accepts from that seat now.

Listed in canonical form: a knock leaves the arrangement to the service (``melds=None``), one
per card that may be knocked with; a layoff is listed per (card, meld) pair that fits now.
The system actor is ``seat=None``: its commands (``StartMatch``, ``Cut``, ``Deal``) are listed
as templates whose seed (or options) the caller supplies; an empty seed is not accepted.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.cards import CARD_NAMES, cards_of
from domain.commands import (
    BigGin,
    ChooseDealer,
    Command,
    Cut,
    Deal,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    PassUpcard,
    StartMatch,
    TakeUpcard,
)
from domain.melds import is_big_gin, knock_options, layoff_targets, min_deadwood_after_discard
from domain.state import MatchState, Phase

# Commands are frozen values, so the common ones are made once and shared.
_SEATS = (0, 1)
_TAKE_OR_PASS: tuple[list[Command], ...] = tuple(
    [TakeUpcard(seat=s), PassUpcard(seat=s)] for s in _SEATS
)
_STOCK_ONLY: tuple[list[Command], ...] = tuple([DrawFromStock(seat=s)] for s in _SEATS)
_DRAWS: tuple[list[Command], ...] = tuple(
    [DrawFromStock(seat=s), DrawFromDiscard(seat=s)] for s in _SEATS
)
_DISCARDS = tuple(tuple(Discard(seat=s, card=name) for name in CARD_NAMES) for s in _SEATS)
_KNOCKS = tuple(tuple(Knock(seat=s, card=name) for name in CARD_NAMES) for s in _SEATS)
_BIG_GIN = tuple(BigGin(seat=s) for s in _SEATS)
_FINISH = tuple(FinishLayoff(seat=s) for s in _SEATS)
_DEALER_CHOICES: tuple[list[Command], ...] = tuple(
    [ChooseDealer(seat=s, dealer=d) for d in _SEATS] for s in _SEATS
)


def legal_actions(state: MatchState, seat: int | None) -> list[Command]:
    if seat is None:
        return _system_actions(state)
    if seat != state.turn:
        return []
    return _BY_PHASE[state.phase](state, seat)


def _system_actions(state: MatchState) -> list[Command]:
    if state.phase is Phase.START:
        return [StartMatch()]
    if state.phase is Phase.CUT:
        return [Cut(seed="")]
    if state.phase is Phase.DEAL:
        return [Deal(seed="")]
    return []


def _choose_dealer(state: MatchState, seat: int) -> list[Command]:
    return list(_DEALER_CHOICES[seat])


def _offer(state: MatchState, seat: int) -> list[Command]:
    return list(_STOCK_ONLY[seat] if state.upcard_passes == 2 else _TAKE_OR_PASS[seat])


def _draw(state: MatchState, seat: int) -> list[Command]:
    return list(_DRAWS[seat])


def _discard(state: MatchState, seat: int) -> list[Command]:
    hand, taken, limit = state.hands[seat], state.pile_card, state.knock_limit
    discards = _DISCARDS[seat]
    actions: list[Command] = [discards[card] for card in cards_of(hand) if card != taken]
    best = min_deadwood_after_discard(hand)
    if best <= limit:
        knocks = _KNOCKS[seat]
        actions += [
            knocks[card]
            for card, deadwood in knock_options(hand).items()
            if deadwood <= limit and card != taken
        ]
        if best == 0 and state.options.big_gin_bonus and is_big_gin(hand):
            actions.append(_BIG_GIN[seat])
    return actions


def _layoff(state: MatchState, seat: int) -> list[Command]:
    assert state.knock is not None
    melds = state.knock.melds
    actions: list[Command] = [
        LayOff(seat=seat, card=CARD_NAMES[card], meld=index)
        for card in cards_of(state.hands[seat])
        for index in layoff_targets(card, melds)
    ]
    actions.append(_FINISH[seat])
    return actions


def _nothing(state: MatchState, seat: int) -> list[Command]:
    return []


_BY_PHASE: dict[Phase, Callable[[MatchState, int], list[Command]]] = {
    Phase.START: _nothing,
    Phase.CUT: _nothing,
    Phase.CHOOSE_DEALER: _choose_dealer,
    Phase.DEAL: _nothing,
    Phase.OFFER: _offer,
    Phase.DRAW: _draw,
    Phase.DISCARD: _discard,
    Phase.LAYOFF: _layoff,
    Phase.MATCH_OVER: _nothing,
}
