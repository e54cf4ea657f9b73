"""``decide(state, command) -> list[Event]``: the rules say yes (with the facts that follow)
or no (with a ``DomainError`` saying why). It never changes state and never draws randomness:
seeds come in with the system commands."""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce
from typing import Any

from domain.clocks import await_join, no_show, stamp_time, time_out
from domain.commands import (
    Abandon,
    Adjudicate,
    AwaitJoin,
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
    NoShow,
    PassUpcard,
    Resign,
    SeatCommand,
    StampTime,
    StartMatch,
    TakeUpcard,
    TimeOut,
)
from domain.endings import abandon, adjudicate, conceded, resign, two_seat_standing
from domain.errors import InvalidCommand
from domain.events import Event, Scored, SeatReturned, TimedOut
from domain.evolve import evolve
from domain.going_out import big_gin, finish_layoff, knock, lay_off
from domain.hand_end import game_end
from domain.setup import choose_dealer, cut, deal, start_match
from domain.state import HandState, MatchState
from domain.turns import discard, draw_from_discard, draw_from_stock, pass_upcard, take_upcard


def decide(state: MatchState, command: Command) -> list[Event]:
    """A two-player match: its hand's decision, and the game and match a scored hand ends."""
    events = _seat_back(state, command, _play_match(state, command))
    if events and type(events[-1]) is Scored:
        # A look-ahead of the rules, as inside ``close_hand``: the match is folded elsewhere.
        events += game_end(reduce(evolve, events, state))
    return events


def decide_hand(state: HandState, command: Command) -> list[Event]:
    """The decision at a hand's table, which ends no game: a larger match's round does."""
    return _seat_back(state, command, _play_hand(state, command))


def _seat_back(state: HandState, command: Command, events: list[Event]) -> list[Event]:
    if isinstance(command, SeatCommand) and state.timeouts[command.seat]:
        # The seat is back: its next timeout counts from one again.
        return [SeatReturned(seat=command.seat), *events]
    return events


def _play_match(state: MatchState, command: Command) -> list[Event]:
    handler = _MATCH_HANDLERS.get(type(command))
    return _play_hand(state, command) if handler is None else handler(state, command)


def _play_hand(state: HandState, command: Command) -> list[Event]:
    handler = _HAND_HANDLERS.get(type(command))
    if handler is None:
        raise InvalidCommand(f"{type(command).__name__} is not a command of this game")
    return handler(state, command)


def _time_out(state: MatchState, command: TimeOut) -> list[Event]:
    events = time_out(state, command, _play_match)
    if type(events[-1]) is TimedOut:  # no default move: the timeout forfeits the match
        return [*events, conceded(two_seat_standing(state), "forfeited_on_time", command.seat)]
    return events


# What a two-player match decides beyond its hand.
_MATCH_HANDLERS: dict[type[Any], Callable[[MatchState, Any], list[Event]]] = {
    StartMatch: start_match,
    Cut: cut,
    ChooseDealer: choose_dealer,
    Resign: lambda state, command: [resign(two_seat_standing(state), command)],
    TimeOut: _time_out,
    Adjudicate: lambda state, command: [adjudicate(two_seat_standing(state), command)],
    AwaitJoin: await_join,
    NoShow: no_show,
    Abandon: lambda state, command: [abandon(two_seat_standing(state))],
}

_HAND_HANDLERS: dict[type[Any], Callable[[HandState, Any], list[Event]]] = {
    Deal: deal,
    TakeUpcard: take_upcard,
    PassUpcard: pass_upcard,
    DrawFromStock: draw_from_stock,
    DrawFromDiscard: draw_from_discard,
    Discard: discard,
    Knock: knock,
    BigGin: big_gin,
    LayOff: lay_off,
    FinishLayoff: finish_layoff,
    StampTime: stamp_time,
    TimeOut: lambda state, command: time_out(state, command, _play_hand),
}

# The moves of a hand being played, by command type: a caller that has checked the seat is
# to play and is not coming back from a timeout (no ``SeatReturned`` due) decides them with
# one call instead of two (the tables of a larger match: ``domain.tables.decide``).
PLAY_HANDLERS: dict[type[Any], Callable[[HandState, Any], list[Event]]] = {
    kind: _HAND_HANDLERS[kind]
    for kind in (
        TakeUpcard,
        PassUpcard,
        DrawFromStock,
        DrawFromDiscard,
        Discard,
        Knock,
        BigGin,
        LayOff,
        FinishLayoff,
    )
}
