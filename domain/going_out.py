"""Deciding how a hand ends: knock (gin when no deadwood), big gin, and the defender's
layoffs.

A knocker may name the arrangement to show, but gin cannot be declined: a hand that melds
completely is shown as gin (or big gin) whatever arrangement is named.
"""

from __future__ import annotations

from domain.cards import CARD_NAMES, card_name, cards_of, format_cards, names
from domain.commands import BigGin, FinishLayoff, Knock, LayOff
from domain.errors import IllegalMove, InvalidCommand
from domain.events import Event, Knocked, LaidOff
from domain.evolve import evolve_hand
from domain.guards import (
    checked_card,
    checked_melds,
    checked_seat,
    require_held,
    require_not_from_pile,
    require_turn,
)
from domain.hand_end import can_lay_off, close_hand
from domain.melds import (
    Arrangement,
    arrangement_of,
    best_arrangement,
    gin_kept,
    knocker_arrangement,
    layoff_targets,
)
from domain.state import HandState, Phase


def knock(state: HandState, command: Knock) -> list[Event]:
    seat = checked_seat(command.seat)
    card = checked_card(command.card)
    chosen = checked_melds(command.melds)
    require_turn(state, seat, Phase.DISCARD, "knock")
    hand = require_held(state, seat, card)
    require_not_from_pile(state, card, "knock with it")
    rest = hand & ~(1 << card)
    if chosen is None:
        arrangement = knocker_arrangement(rest, state.hands[1 - seat])
    elif any(meld >> card & 1 for meld in chosen):
        raise IllegalMove(f"{card_name(card)} is your knock card and cannot be in a meld")
    else:
        arrangement = gin_kept(rest, arrangement_of(rest, chosen))
    if arrangement.count > state.knock_limit:
        raise IllegalMove(_over_limit(arrangement.count, state.knock_limit))
    shown = _shown(seat, CARD_NAMES[card], arrangement, big_gin=False)
    return _after_showing(state, shown)


def big_gin(state: HandState, command: BigGin) -> list[Event]:
    seat = checked_seat(command.seat)
    chosen = checked_melds(command.melds)
    require_turn(state, seat, Phase.DISCARD, "go big gin")
    if state.options.big_gin_bonus == 0:
        raise IllegalMove("big gin is not played under these rules")
    hand = state.hands[seat]
    if chosen is None:
        arrangement = best_arrangement(hand)
    else:
        arrangement = gin_kept(hand, arrangement_of(hand, chosen))
    if arrangement.count:
        raise IllegalMove(
            f"big gin needs all 11 cards in melds; deadwood would be {arrangement.count}"
        )
    return _after_showing(state, _shown(seat, None, arrangement, big_gin=True))


def lay_off(state: HandState, command: LayOff) -> list[Event]:
    seat = checked_seat(command.seat)
    card = checked_card(command.card)
    index = command.meld
    if type(index) is not int or index < 0:
        raise InvalidCommand("meld must be the number of one of the knocker's melds, from 0")
    require_turn(state, seat, Phase.LAYOFF, "lay off")
    require_held(state, seat, card)
    assert state.knock is not None
    melds = state.knock.melds
    if index >= len(melds):
        raise IllegalMove(
            f"the knocker has no meld {index}: the melds are numbered 0 to {len(melds) - 1}"
        )
    if index not in layoff_targets(card, melds):
        meld = format_cards(cards_of(melds[index]))
        raise IllegalMove(f"{card_name(card)} does not fit the knocker's meld {index} ({meld})")
    laid = LaidOff(seat=seat, card=CARD_NAMES[card], meld=index)
    after = evolve_hand(state, laid)
    return [laid] if can_lay_off(after) else [laid, *close_hand(after)]


def finish_layoff(state: HandState, command: FinishLayoff) -> list[Event]:
    seat = checked_seat(command.seat)
    require_turn(state, seat, Phase.LAYOFF, "finish laying off")
    return close_hand(state)


def _shown(seat: int, card: str | None, arrangement: Arrangement, *, big_gin: bool) -> Knocked:
    return Knocked(
        seat=seat,
        card=card,
        melds=[names(cards_of(meld)) for meld in arrangement.melds],
        deadwood=names(cards_of(arrangement.deadwood)),
        deadwood_count=arrangement.count,
        gin=not big_gin and arrangement.count == 0,
        big_gin=big_gin,
    )


def _after_showing(state: HandState, shown: Knocked) -> list[Event]:
    """Score at once unless the defender has something to lay off."""
    after = evolve_hand(state, shown)
    return [shown] if can_lay_off(after) else [shown, *close_hand(after)]


def _over_limit(count: int, limit: int) -> str:
    if limit == 0:
        return f"deadwood would be {count}; this hand can only be ended by gin"
    return f"deadwood would be {count}; the knock limit is {limit}"
