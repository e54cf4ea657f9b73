"""The turn clock as data: each decision's received-at time comes in with ``StampTime`` and
each timeout's with ``TimeOut``; the domain never reads a clock.

A seat on the clock has ``turn_seconds`` per decision and then its bank: ``due_at`` is the
decision's start plus both. Time past ``turn_seconds`` is taken from the seat's bank when the
next decision is stamped.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from domain.commands import AwaitJoin, Command, NoShow, StampTime, TimeOut
from domain.default_moves import default_move
from domain.endings import Standing, ended, two_seat_standing
from domain.errors import IllegalMove, MatchOver
from domain.events import DeadlineSet, Event, MatchEnded, TimedOut
from domain.guards import checked_seat
from domain.options import RuleOptions
from domain.state import HandState, MatchState, Phase
from domain.views import view

# A two-player match's clock and a table's hand's alike; a move is played by the caller's rules.
S = TypeVar("S", bound=HandState)


def await_join(state: MatchState, command: AwaitJoin) -> list[Event]:
    seat = None if command.seat is None else checked_seat(command.seat)
    options = state.options
    banks = [options.bank_seconds * 1000] * 2
    return [*join_deadline(options, state.phase is Phase.CUT, seat, banks, command)]


def join_deadline(
    options: RuleOptions, waiting: bool, seat: int | None, banks: list[int], command: AwaitJoin
) -> list[DeadlineSet]:
    """The deadline of the invited seats of a match ``waiting`` for its players: ``seat``'s
    own when one seat of two is invited, else every invited seat's, naming none (docs/rules.md,
    "How a match ends" and "Join deadlines, no-shows, abandonment and adjudication")."""
    if not waiting or not options.join_seconds:
        raise IllegalMove("a join deadline is set only on a match waiting for its players")
    due = command.at + timedelta(seconds=options.join_seconds)
    return [DeadlineSet(seat=seat, at=command.at, due_at=due, banks_ms=banks, kind="join")]


def no_show(state: MatchState, command: NoShow) -> list[Event]:
    return [*no_show_in(two_seat_standing(state), state.phase is Phase.CUT, state.clock, command)]


def no_show_in(
    standing: Standing, waiting: bool, deadline: DeadlineSet | None, command: NoShow
) -> list[TimedOut | MatchEnded]:
    """The join deadline passed with ``command.seat`` still empty, in a match ``waiting`` for
    its players: the seat's timeout, then the end of the match (no cut), won by nobody or,
    with ``forfeit``, by the side the seat concedes to. A deadline naming a seat is that
    seat's alone; one naming none every invited seat's."""
    seat = standing.checked_seat(command.seat)
    if standing.over:
        raise MatchOver("the match is over")
    if not waiting or deadline is None or deadline.kind != "join":
        raise IllegalMove("only a match waiting for an invited player has a join deadline")
    due = deadline.due_at
    if deadline.seat not in (None, seat) or due is None:
        raise IllegalMove(f"seat {seat} has no join deadline")
    if command.at < due:
        who = f"seat {seat} has" if deadline.seat is not None else "the invited players have"
        raise IllegalMove(f"{who} until {due.isoformat()} to join")
    winner = standing.conceded_to(seat) if command.forfeit else None
    return [
        TimedOut(seat=seat, due_at=due, at=command.at, consecutive=1),
        ended(standing, "no_show", seat, winner=winner),
    ]


def stamp_time(state: HandState, command: StampTime) -> list[Event]:
    options = state.options
    clock = state.clock
    if not options.turn_seconds:
        # Only a join deadline to clear, once the invited player is in.
        if clock is None or clock.seat is None:
            return []
        return [DeadlineSet(seat=None, at=command.at, due_at=None, banks_ms=list(clock.banks_ms))]
    banks = list(clock.banks_ms) if clock else [options.bank_seconds * 1000] * 2
    if clock is not None and clock.seat is not None and clock.kind == "turn":
        over = _ms(command.at - clock.at) - options.turn_seconds * 1000
        if over > 0:
            banks[clock.seat] = max(0, banks[clock.seat] - over)
    seat = None if state.phase is Phase.MATCH_OVER else state.turn
    if seat is None:
        if clock is None or clock.seat is None:
            return []
        return [DeadlineSet(seat=None, at=command.at, due_at=None, banks_ms=banks)]
    allowed = timedelta(milliseconds=options.turn_seconds * 1000 + banks[seat])
    return [DeadlineSet(seat=seat, at=command.at, due_at=command.at + allowed, banks_ms=banks)]


def time_out(state: S, command: TimeOut, play: Callable[[S, Command], list[Event]]) -> list[Event]:
    """The seat's timeout, then its default move made by ``play`` (the rules' own decision);
    the seat's ``timeouts_to_forfeit``-th timeout in a row alone: it forfeits the match, which
    the match decides (``endings.conceded``)."""
    seat = checked_seat(command.seat)
    if state.phase is Phase.MATCH_OVER:
        raise MatchOver("the match is over")
    clock = state.clock
    if clock is None or clock.due_at is None or clock.seat != seat or state.turn != seat:
        raise IllegalMove(f"seat {seat} is not on the clock")
    if clock.kind != "turn":
        raise IllegalMove(f"seat {seat} has a join deadline, not a turn clock")
    if command.at < clock.due_at:
        raise IllegalMove(f"seat {seat} has until {clock.due_at.isoformat()}")
    consecutive = state.timeouts[seat] + 1
    events: list[Event] = [
        TimedOut(seat=seat, due_at=clock.due_at, at=command.at, consecutive=consecutive)
    ]
    if consecutive >= state.options.timeouts_to_forfeit:
        return events
    return [*events, *play(state, default_move(view(state, seat)))]


def _ms(span: timedelta) -> int:
    return span // timedelta(milliseconds=1)
