"""The turn clocks of a three- or four-player match: each table's hand has its own, the
two-player clock (``domain.clocks``) with the match seats' banks and timeout counts carried
from hand to hand. Both tables of the four-player game run at once, so each is stamped only
when a decision is made (or a hand dealt) there.

After the tables' clocks change the match records its next deadline, the earliest of them, as
a ``deadline_set`` of its own: that is what the service's timer waits for.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.clocks import join_deadline, no_show_in, stamp_time
from domain.commands import AwaitJoin, NoShow, StampTime, TimeOut
from domain.decide import decide_hand
from domain.endings import conceded
from domain.errors import IllegalMove, InvalidCommand, MatchOver
from domain.events import DeadlineSet, TimedOut
from domain.tables.commands import StampClocks
from domain.tables.endings import standing
from domain.tables.events import FormatEvent, TableEvent
from domain.tables.evolve import evolve_tables
from domain.tables.state import FormatPhase, TablesState


def stamp_clocks(state: TablesState, command: StampClocks) -> list[FormatEvent]:
    tables = command.tables
    if len(set(tables)) != len(tables) or any(
        type(index) is not int or not 0 <= index < len(state.tables) for index in tables
    ):
        raise InvalidCommand("tables must be distinct tables of the round")
    if state.ending is not None:
        return []  # a match that ended other than by play has no clock left to stop
    if not state.options.turn_seconds:
        return _join_cleared(state, command)
    events: list[FormatEvent] = []
    for index in sorted(tables):
        table = state.tables[index]
        hand = table.state
        if hand.clock is None:
            # A new hand: its seats bring the banks they have left.
            banks = [state.banks_ms[seat] for seat in table.seats]
            hand = replace(hand, clock=DeadlineSet(None, command.at, None, banks))
        for stamped in stamp_time(hand, StampTime(at=command.at)):
            events.append(TableEvent(index, list(table.seats), stamped))
    for event in events:
        state = evolve_tables(state, event)
    return [*events, *_next_deadline(state, command)]


def await_join(state: TablesState, command: AwaitJoin) -> list[FormatEvent]:
    """Every invited seat has ``join_seconds`` from the match's creation: one deadline for them
    all, naming no seat."""
    waiting = state.phase is FormatPhase.CUT and state.deadline is None
    return [*join_deadline(state.options, waiting, None, list(state.banks_ms), command)]


def no_show(state: TablesState, command: NoShow) -> list[FormatEvent]:
    """The join deadline passed with ``seat`` (the lowest absent seat) still empty: the match is
    cancelled, or that seat forfeits as a resignation before the deal would."""
    waiting = state.phase is FormatPhase.CUT
    return [*no_show_in(standing(state), waiting, state.deadline, command)]


def time_out(state: TablesState, command: TimeOut) -> list[FormatEvent]:
    """The seat's timeout at its table, then its default move there; on its
    ``timeouts_to_forfeit``-th timeout in a row the end of the match instead, as if it had
    resigned (``endings.conceded``)."""
    seat = command.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        raise InvalidCommand(f"seat must be 0 to {state.players - 1}")
    if state.phase is FormatPhase.MATCH_OVER:
        raise MatchOver("the match is over")
    place = state.place_of(seat) if state.phase is FormatPhase.PLAY else None
    clock = None if place is None else state.tables[place[0]].state.clock
    if place is None or clock is None or clock.due_at is None or clock.seat != place[1]:
        raise IllegalMove(f"seat {seat} is not on the clock")
    if command.at < clock.due_at:
        raise IllegalMove(f"seat {seat} has until {clock.due_at.isoformat()}")
    index, table_seat = place
    table = state.tables[index]
    inner = decide_hand(table.state, TimeOut(seat=table_seat, at=command.at))
    seats = list(table.seats)
    if type(inner[-1]) is TimedOut:  # the timeout alone: it forfeits the match
        forfeit = conceded(standing(state), "forfeited_on_time", seat)
        return [TableEvent(index, seats, inner[0]), forfeit]
    # The bank is spent at once: the default move may end the round, and the table with it.
    banks = list(clock.banks_ms)
    banks[table_seat] = 0
    spent = DeadlineSet(seat=None, at=command.at, due_at=None, banks_ms=banks)
    timed_out, *moved = inner
    return [TableEvent(index, seats, event) for event in (timed_out, spent, *moved)]


def _join_cleared(state: TablesState, command: StampClocks) -> list[FormatEvent]:
    """Without turn clocks the only deadline is the join deadline, cleared once the cut was
    made (every invited seat has joined)."""
    deadline = state.deadline
    if state.phase is FormatPhase.CUT or deadline is None or deadline.due_at is None:
        return []
    return [DeadlineSet(seat=None, at=command.at, due_at=None, banks_ms=list(state.banks_ms))]


def _next_deadline(state: TablesState, command: StampClocks) -> list[FormatEvent]:
    """The match's next deadline, when it changed: the earliest of its tables' clocks."""
    banks = list(state.banks_ms)
    best: DeadlineSet | None = None
    for table in state.tables:
        clock = table.state.clock
        if clock is None:
            continue
        for table_seat, seat in enumerate(table.seats):
            banks[seat] = clock.banks_ms[table_seat]
        if clock.seat is None or clock.due_at is None:
            continue
        if best is None or best.due_at is None or clock.due_at < best.due_at:
            best = DeadlineSet(table.seats[clock.seat], clock.at, clock.due_at, [])
    last = state.deadline
    if best is None:
        if last is None or last.due_at is None:
            return []
        return [DeadlineSet(seat=None, at=command.at, due_at=None, banks_ms=banks)]
    if last is not None and (last.seat, last.due_at) == (best.seat, best.due_at):
        return []
    return [replace(best, banks_ms=banks)]
