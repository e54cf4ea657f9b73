"""``evolve_tables(state, event) -> state``: the one place a three- or four-player match's
state changes. A table's events are folded by the two-player ``evolve``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache, reduce
from typing import Any

from msgspec.structs import replace

from domain.events import DeadlineSet, Dealt, MatchEnded, TimedOut
from domain.evolve import HAND_EVOLVERS
from domain.options import RuleOptions
from domain.state import HandState, Phase
from domain.tables.events import (
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    RoundScored,
    RoundStarted,
    SeatsCut,
    TableEvent,
)
from domain.tables.state import FormatPhase, TablesState, created

_TABLE_DEALER = 1  # table seat 1 plays the dealer's part (``domain.tables.seating``)
# Looked up once: a member looked up on its enum class goes through ``EnumType.__getattr__``.
_DEAL = Phase.DEAL


def evolve_tables(state: TablesState, event: FormatEvent) -> TablesState:
    if type(event) is not TableEvent:
        return _EVOLVERS[type(event)](state, event)
    # A move at one table, nearly every event, so folded right here: the other table (there are
    # at most two) is shared, not copied.
    inner = event.event
    hands = state.hands
    index = event.table
    hand = HAND_EVOLVERS[type(inner)](hands[index], inner)
    # Whose turn it is at each table (a hand waiting for its deal has no turn), written out
    # for one table or two.
    seats = state.table_seats
    if len(hands) == 1:
        hands = (hand,)
        turn = hand.turn
        turns = [] if turn is None or hand.phase is _DEAL else [seats[0][turn]]
    else:
        first, second = hands = (hand, hands[1]) if index == 0 else (hands[0], hand)
        turns = []
        turn = first.turn
        if turn is not None and first.phase is not _DEAL:
            turns.append(seats[0][turn])
        turn = second.turn
        if turn is not None and second.phase is not _DEAL:
            turns.append(seats[1][turn])
    if type(inner) is Dealt:
        return _dealt(state, hands, turns)
    return replace(state, hands=hands, turns=turns)


def fold_tables(events: Iterable[FormatEvent], state: TablesState | None = None) -> TablesState:
    return reduce(evolve_tables, events, state or TablesState())


def table_hand(options: RuleOptions, game: int, hand: int) -> HandState:
    """A two-player hand waiting for its deal, with table seat 1 as its dealer; it numbers its
    deal as the match's ``game`` and ``hand``."""
    return replace(_ready_table(options), game=game, hand=hand - 1)


@lru_cache(maxsize=64)
def _ready_table(options: RuleOptions) -> HandState:
    # The same for every hand of a match (states are frozen, so one is shared by them all).
    # Its hand ends no game (``domain.decide.decide_hand``): the match's targets are the round's.
    return HandState(
        options=options, phase=Phase.DEAL, dealer=_TABLE_DEALER, knock_limit=options.knock_limit
    )


def _created(state: TablesState, e: FormatMatchCreated) -> TablesState:
    return created(e)


def _cut(state: TablesState, e: SeatsCut) -> TablesState:
    return replace(state, cut=e)


def _round_started(state: TablesState, e: RoundStarted) -> TablesState:
    banks, timeouts = _clocks_handed_on(state)
    hands = tuple(_with_timeouts(state, e, seats, timeouts) for seats in e.tables)
    places: list[tuple[int, int] | None] = [None] * state.players
    for index, seats in enumerate(e.tables):
        for table_seat, seat in enumerate(seats):
            places[seat] = (index, table_seat)
    zeros = (0,) * state.sides
    new_game = e.game != state.game
    return replace(
        state,
        phase=FormatPhase.DEAL,
        dealer_side=e.dealer_side,
        sitting_out=e.sitting_out,
        round=e.round,
        game=e.game,
        hand=e.hand,
        hands=hands,
        table_seats=tuple((seats[0], seats[1]) for seats in e.tables),
        places=tuple(places),
        turns=[],  # every hand waits for its deal
        hand_points=zeros if new_game else state.hand_points,
        hands_won=zeros if new_game else state.hands_won,
        banks_ms=banks,
        timeouts=timeouts,
    )


def _clocks_handed_on(state: TablesState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's bank and consecutive timeouts as the round's hands leave them: a seat's
    bank is for the whole match, and timeouts in a row count across hands."""
    banks, timeouts = list(state.banks_ms), list(state.timeouts)
    for table in state.tables:
        hand = table.state
        for table_seat, seat in enumerate(table.seats):
            timeouts[seat] = hand.timeouts[table_seat]
            if hand.clock is not None:
                banks[seat] = hand.clock.banks_ms[table_seat]
    return tuple(banks), tuple(timeouts)


def _with_timeouts(
    state: TablesState, e: RoundStarted, seats: list[int], timeouts: tuple[int, ...]
) -> HandState:
    hand = table_hand(state.options, e.game, e.hand)
    counts = (timeouts[seats[0]], timeouts[seats[1]])
    return replace(hand, timeouts=counts) if any(counts) else hand


def _dealt(state: TablesState, hands: tuple[HandState, ...], turns: list[int]) -> TablesState:
    dealt = all(hand.deals > 0 for hand in hands)
    return replace(
        state,
        hands=hands,
        turns=turns,
        phase=FormatPhase.PLAY if dealt else FormatPhase.DEAL,
        deals=state.deals + 1,
    )


def _round_scored(state: TablesState, e: RoundScored) -> TablesState:
    return replace(
        state,
        hand_points=tuple(e.hand_points),
        hands_won=tuple(e.hands_won),
        last_round=e,
        last_hands=tuple(table.state.last_hand for table in state.tables),
    )


def _game_won(state: TablesState, e: FormatGameWon) -> TablesState:
    games_won = list(state.games_won)
    games_won[e.winner] += 1
    return replace(
        state,
        match_scores=tuple(e.match_scores),
        games_won=tuple(games_won),
        last_game=e,
    )


def _match_won(state: TablesState, e: FormatMatchWon) -> TablesState:
    return replace(state, phase=FormatPhase.MATCH_OVER, winner=e.winner)


def _match_ended(state: TablesState, e: MatchEnded) -> TablesState:
    # The hands in progress stop where they are; nobody is on the clock any more.
    hands = tuple(replace(hand, clock=None) for hand in state.hands)
    return replace(
        state,
        phase=FormatPhase.MATCH_OVER,
        winner=e.winner,
        ending=e,
        hands=hands,
        deadline=None,
    )


def _deadline_set(state: TablesState, e: DeadlineSet) -> TablesState:
    return replace(state, deadline=e)


_EVOLVERS: dict[type[Any], Callable[[TablesState, Any], TablesState]] = {
    FormatMatchCreated: _created,
    SeatsCut: _cut,
    RoundStarted: _round_started,
    RoundScored: _round_scored,
    FormatGameWon: _game_won,
    FormatMatchWon: _match_won,
    MatchEnded: _match_ended,
    DeadlineSet: _deadline_set,
    # A no-show's time, for a verifier: the ``match_ended`` right after it ends the match.
    TimedOut: lambda state, _: state,
}
