"""``evolve(state, event) -> state``: the one place state changes, for play and loading alike.

Events are facts already decided, so nothing here validates or draws randomness; a stored
match is loaded with ``fold(events)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce
from typing import Any, TypeVar

from msgspec.structs import replace

from domain.cards import parse_card
from domain.events import (
    CardsCut,
    DeadlineSet,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameWon,
    HandDrawn,
    Knocked,
    LaidOff,
    MatchCreated,
    MatchEnded,
    MatchWon,
    Scored,
    SeatJoined,
    SeatReturned,
    TimedOut,
    UpcardPassed,
)
from domain.state import HandState, KnockState, MatchState, Phase, new_match

# A hand's events change a two-player match's hand and a table's hand alike.
S = TypeVar("S", bound=HandState)


def evolve(state: MatchState, event: Event) -> MatchState:
    return _EVOLVERS[type(event)](state, event)


def evolve_hand(state: HandState, event: Event) -> HandState:
    """A hand's event on a hand alone: the look-ahead of a hand's own rules."""
    return HAND_EVOLVERS[type(event)](state, event)


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """The state after ``events``, from ``state`` or a new match: loading is this fold.
    (A dispute's "replay" is something else: stepping through a finished hand, in
    ``service.audit.replay``.)"""
    return reduce(evolve, events, state or new_match())


def _mask(names: Iterable[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << parse_card(name)
    return mask


def _melds(melds: list[list[str]]) -> tuple[int, ...]:
    return tuple(_mask(meld) for meld in melds)


def _with_seat(pair: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _match_created(state: MatchState, e: MatchCreated) -> MatchState:
    return MatchState(options=e.options, phase=Phase.CUT, knock_limit=e.options.knock_limit)


def _cards_cut(state: MatchState, e: CardsCut) -> MatchState:
    return replace(state, cut=e, phase=Phase.CHOOSE_DEALER, turn=e.winner)


def _dealer_chosen(state: MatchState, e: DealerChosen) -> MatchState:
    return replace(state, dealer=e.dealer, phase=Phase.DEAL, turn=None)


def _dealt(state: S, e: Dealt) -> S:
    return replace(
        state,
        phase=Phase.OFFER,
        turn=1 - e.dealer,
        dealer=e.dealer,
        game=e.game,
        hand=e.hand,
        deals=state.deals + 1,
        hands=(_mask(e.hands[0]), _mask(e.hands[1])),
        stock=tuple(parse_card(name) for name in e.stock),
        stock_next=0,
        pile=(parse_card(e.upcard),),
        upcard_passes=0,
        pile_card=None,
        from_pile=(0, 0),
        knock_limit=e.knock_limit,
        multiplier=e.multiplier,
        knock=None,
    )


def _upcard_passed(state: S, e: UpcardPassed) -> S:
    # The non-dealer passes to the dealer; the dealer passing gives the non-dealer the draw.
    return replace(state, upcard_passes=state.upcard_passes + 1, turn=1 - e.seat)


def _drew(state: S, e: Drew) -> S:
    seat = e.seat
    hands = state.hands
    if e.source == "stock":
        card = state.stock[state.stock_next]
        bit = 1 << card
        return replace(
            state,
            phase=Phase.DISCARD,
            hands=_with_seat(hands, seat, hands[seat] | bit),
            stock_next=state.stock_next + 1,
        )
    card = state.pile[-1]
    bit = 1 << card
    return replace(
        state,
        phase=Phase.DISCARD,
        hands=_with_seat(hands, seat, hands[seat] | bit),
        pile=state.pile[:-1],
        pile_card=card,
        from_pile=_with_seat(state.from_pile, seat, state.from_pile[seat] | bit),
    )


def _discarded(state: S, e: Discarded) -> S:
    seat = e.seat
    card = parse_card(e.card)
    keep = ~(1 << card)
    return replace(
        state,
        phase=Phase.DRAW,
        turn=1 - seat,
        hands=_with_seat(state.hands, seat, state.hands[seat] & keep),
        pile=(*state.pile, card),
        pile_card=None,
        from_pile=_with_seat(state.from_pile, seat, state.from_pile[seat] & keep),
    )


def _knocked(state: S, e: Knocked) -> S:
    seat = e.seat
    card = None if e.card is None else parse_card(e.card)
    held = state.hands[seat] if card is None else state.hands[seat] & ~(1 << card)
    melds = _melds(e.melds)
    knock = KnockState(
        knocker=seat,
        card=card,
        shown_melds=melds,
        melds=melds,
        deadwood=_mask(e.deadwood),
        count=e.deadwood_count,
        gin=e.gin,
        big_gin=e.big_gin,
    )
    return replace(
        state,
        phase=Phase.LAYOFF,
        turn=1 - seat,
        hands=_with_seat(state.hands, seat, held),
        from_pile=_with_seat(state.from_pile, seat, state.from_pile[seat] & held),
        pile_card=None,
        knock=knock,
    )


def _laid_off(state: S, e: LaidOff) -> S:
    knock = state.knock
    assert knock is not None
    card = parse_card(e.card)
    bit = 1 << card
    melds = list(knock.melds)
    melds[e.meld] |= bit
    knock = replace(
        knock,
        melds=tuple(melds),
        layoffs=(*knock.layoffs, (card, e.meld)),
        laid_off=knock.laid_off | bit,
    )
    seat = e.seat
    return replace(
        state,
        hands=_with_seat(state.hands, seat, state.hands[seat] & ~bit),
        from_pile=_with_seat(state.from_pile, seat, state.from_pile[seat] & ~bit),
        knock=knock,
    )


def _scored(state: S, e: Scored) -> S:
    hands_won = state.hands_won
    dealer = state.dealer
    if e.winner is not None:
        hands_won = _with_seat(hands_won, e.winner, hands_won[e.winner] + 1)
        assert dealer is not None
        dealer = e.winner if state.options.next_dealer == "winner" else 1 - dealer
    points = (e.hand_points[0], e.hand_points[1])
    return replace(
        state,
        phase=Phase.DEAL,
        turn=None,
        dealer=dealer,
        hand_points=points,
        hands_won=hands_won,
        last_hand=e,
    )


def _hand_drawn(state: S, e: HandDrawn) -> S:
    return replace(state, phase=Phase.DEAL, turn=None, last_hand=e)


def _game_won(state: MatchState, e: GameWon) -> MatchState:
    games_won = _with_seat(state.games_won, e.winner, state.games_won[e.winner] + 1)
    return replace(
        state,
        hand_points=(0, 0),
        hands_won=(0, 0),
        match_scores=(e.match_scores[0], e.match_scores[1]),
        games_won=games_won,
        game=e.game + 1,
        hand=0,
        last_game=e,
    )


def _match_won(state: MatchState, e: MatchWon) -> MatchState:
    return replace(state, phase=Phase.MATCH_OVER, turn=None, winner=e.winner)


def _deadline_set(state: S, e: DeadlineSet) -> S:
    return replace(state, clock=e)


def _timed_out(state: S, e: TimedOut) -> S:
    return replace(state, timeouts=_with_seat(state.timeouts, e.seat, e.consecutive))


def _seat_returned(state: S, e: SeatReturned) -> S:
    return replace(state, timeouts=_with_seat(state.timeouts, e.seat, 0))


def _seat_joined(state: MatchState, e: SeatJoined) -> MatchState:
    return state  # who sits where is the registry's; the event only announces the join


def _match_ended(state: MatchState, e: MatchEnded) -> MatchState:
    return replace(state, phase=Phase.MATCH_OVER, turn=None, winner=e.winner, ending=e)


def _hand_evolvers(kind: type[S]) -> dict[type[Any], Callable[[S, Any], S]]:
    """The evolvers of a hand's events, for a state of ``kind``: a two-player match or a
    table's hand alone."""
    return {
        Dealt: _dealt,
        UpcardPassed: _upcard_passed,
        Drew: _drew,
        Discarded: _discarded,
        Knocked: _knocked,
        LaidOff: _laid_off,
        Scored: _scored,
        HandDrawn: _hand_drawn,
        DeadlineSet: _deadline_set,
        TimedOut: _timed_out,
        SeatReturned: _seat_returned,
    }


_EVOLVERS: dict[type[Any], Callable[[MatchState, Any], MatchState]] = {
    MatchCreated: _match_created,
    CardsCut: _cards_cut,
    DealerChosen: _dealer_chosen,
    GameWon: _game_won,
    MatchWon: _match_won,
    MatchEnded: _match_ended,
    SeatJoined: _seat_joined,
    **_hand_evolvers(MatchState),
}

# By event type, the events of a hand, for a caller folding a hand it holds, one call fewer
# than ``evolve`` (the tables of a larger match: ``domain.tables.evolve``).
HAND_EVOLVERS = _hand_evolvers(HandState)
