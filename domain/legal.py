"""``legal_actions(state, seat)``: exactly the commands ``decide`` accepts from that seat now.

Listed in canonical form: a knock leaves the arrangement to the service (``melds=None``), one
per card that may be knocked with; a layoff is listed per (card, meld) pair that fits now.
The system actor is ``seat=None``: its commands (``StartMatch``, ``Cut``, ``Deal``) are listed
as templates whose seed (or options) the caller supplies; an empty seed is not accepted.

``legal_actions_as(state, seat, sender)`` lists the same actions carrying the seat number
``sender`` instead: a hand played at a table of a larger match is sent its seats' commands
with their match seats, so they are listed that way rather than translated one by one.
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
from domain.state import HandState, Phase

# Commands are frozen values, so the common ones are made once and shared, by the seat number
# they carry: a hand's own seats, or a larger match's seats (up to four) playing at it.
_SEATS = (0, 1)
_SENDERS = range(4)
_TAKE_OR_PASS: tuple[list[Command], ...] = tuple(
    [TakeUpcard(seat=s), PassUpcard(seat=s)] for s in _SENDERS
)
_STOCK_ONLY: tuple[list[Command], ...] = tuple([DrawFromStock(seat=s)] for s in _SENDERS)
_DRAWS: tuple[list[Command], ...] = tuple(
    [DrawFromStock(seat=s), DrawFromDiscard(seat=s)] for s in _SENDERS
)
_DISCARDS = tuple(tuple(Discard(seat=s, card=name) for name in CARD_NAMES) for s in _SENDERS)
_KNOCKS = tuple(tuple(Knock(seat=s, card=name) for name in CARD_NAMES) for s in _SENDERS)
_BIG_GIN = tuple(BigGin(seat=s) for s in _SENDERS)
_FINISH = tuple(FinishLayoff(seat=s) for s in _SENDERS)
_DEALER_CHOICES: tuple[list[Command], ...] = tuple(
    [ChooseDealer(seat=s, dealer=d) for d in _SEATS] for s in _SENDERS
)


def legal_actions(state: HandState, seat: int | None) -> list[Command]:
    if seat is None:
        return _system_actions(state)
    if seat != state.turn:
        return []
    return _BY_PHASE[state.phase](state, seat, seat)


def legal_actions_as(state: HandState, seat: int, sender: int) -> list[Command]:
    """``seat``'s legal actions, each carrying ``sender`` (0 to 3) as its seat."""
    if seat != state.turn:
        return []
    return _BY_PHASE[state.phase](state, seat, sender)


def shared_commands(sender: int) -> tuple[Command, ...]:
    """The commands listed as shared values, carrying ``sender``: in the same order for every
    sender, so two senders' commands pair up (a layoff is made when it is listed)."""
    return (
        *_TAKE_OR_PASS[sender],
        *_DRAWS[sender],
        *_DISCARDS[sender],
        *_KNOCKS[sender],
        _BIG_GIN[sender],
        _FINISH[sender],
    )


def _system_actions(state: HandState) -> list[Command]:
    if state.phase is Phase.START:
        return [StartMatch()]
    if state.phase is Phase.CUT:
        return [Cut(seed="")]
    if state.phase is Phase.DEAL:
        return [Deal(seed="")]
    return []


def _choose_dealer(state: HandState, seat: int, sender: int) -> list[Command]:
    return list(_DEALER_CHOICES[sender])


def _offer(state: HandState, seat: int, sender: int) -> list[Command]:
    return list(_STOCK_ONLY[sender] if state.upcard_passes == 2 else _TAKE_OR_PASS[sender])


def _draw(state: HandState, seat: int, sender: int) -> list[Command]:
    return list(_DRAWS[sender])


def _discard(state: HandState, seat: int, sender: int) -> list[Command]:
    hand, taken, limit = state.hands[seat], state.pile_card, state.knock_limit
    discards = _DISCARDS[sender]
    actions: list[Command] = [discards[card] for card in cards_of(hand) if card != taken]
    best = min_deadwood_after_discard(hand)
    if best <= limit:
        knocks = _KNOCKS[sender]
        actions += [
            knocks[card]
            for card, deadwood in knock_options(hand).items()
            if deadwood <= limit and card != taken
        ]
        if best == 0 and state.options.big_gin_bonus and is_big_gin(hand):
            actions.append(_BIG_GIN[sender])
    return actions


def _layoff(state: HandState, seat: int, sender: int) -> list[Command]:
    assert state.knock is not None
    melds = state.knock.melds
    actions: list[Command] = [
        LayOff(seat=sender, card=CARD_NAMES[card], meld=index)
        for card in cards_of(state.hands[seat])
        for index in layoff_targets(card, melds)
    ]
    actions.append(_FINISH[sender])
    return actions


def _nothing(state: HandState, seat: int, sender: int) -> list[Command]:
    return []


_BY_PHASE: dict[Phase, Callable[[HandState, int, int], list[Command]]] = {
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

# By phase, ``(state, seat, sender)``: for a caller that has checked that ``seat`` is to play,
# one call fewer than ``legal_actions_as`` (``domain.tables.legal``).
BY_PHASE = _BY_PHASE
