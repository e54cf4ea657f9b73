"""What differs between a match of two seats and one of three or four, as data and functions:
one ``MatchRules`` per table size, chosen once by seat count (``rules_for``), so that every use
case of the service is written once.

Two seats play one two-player hand at a time (``domain.decide`` and friends); three and four
play a round of tables, each a two-player hand under the match (``domain.formats``). The
service asks a match's rules for its state, its decisions, the steps nobody at the table
takes (the cut and the deals, whose seeds the service supplies), its clocks and what a seat or
a bot sees; it never asks how many seats a match has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Literal, TypeVar

import msgspec

from domain.commands import AwaitJoin, Command, Cut, Deal, SeatCommand, StampTime, StartMatch
from domain.decide import decide
from domain.events import MATCH_ENDINGS, DeadlineSet, Event, SeatJoined
from domain.evolve import fold
from domain.formats.commands import CutSeats, DealTable, StampClocks, StartFormatMatch
from domain.formats.decide import decide_format
from domain.formats.events import FORMAT_MATCH_ENDINGS, FormatEvent, RoundScored, TableEvent
from domain.formats.evolve import fold_format
from domain.formats.legal import format_legal_actions
from domain.formats.state import FormatPhase, FormatState
from domain.formats.views import redact_format_events
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import MatchState, Phase, new_match
from domain.views import SeatView, redact_events, view

S = TypeVar("S")
E = TypeVar("E")
SystemStep = Literal["cut", "deal"]


@dataclass(frozen=True)
class MatchRules(Generic[S, E]):
    initial: Callable[[], S]
    start: Callable[[RuleOptions, int], Any]  # the command that opens a match of n seats
    decide: Callable[[S, Any], list[E]]
    fold: Callable[[Iterable[E], S], S]
    legal_actions: Callable[[S, int | None], Sequence[Any]]
    redact: Callable[[Sequence[tuple[int, E]], int | None], list[tuple[int, E]]]
    endings: tuple[type, ...]  # the events that end the match
    over: Callable[[S], bool]
    system_step: Callable[[S], SystemStep | None]  # the step nobody at the table takes
    cut: Callable[[str], Any]  # the cut's and a deal's command, given its seed
    deal: Callable[[str], Any]
    joined: Callable[[int], list[E]]  # what a seat's join adds to the match
    # A seat's command, decided at ``now`` (the clock charged first where the rules say).
    decided: Callable[[S, SeatCommand, int, datetime], list[E]]
    # The clock's step once ``made`` is decided at ``now``, with the seats yet to join.
    clock_step: Callable[[S, Sequence[E], datetime, Sequence[int]], Any | None]
    deadline: Callable[[S], DeadlineSet | None]  # the match's next deadline
    # The two-player hand whose clock a seat plays on, and its seat there (None: none).
    hand_of: Callable[[S, int], tuple[MatchState, int] | None]
    awaits: Callable[[S, int], bool]  # whether the match waits on ``seat``'s move
    bot_view: Callable[[S, int], SeatView]  # what a bot at ``seat`` decides on


def _two_seat_step(state: MatchState) -> SystemStep | None:
    due = legal_actions(state, None)
    if not due:
        return None
    return "cut" if isinstance(due[0], Cut) else "deal" if isinstance(due[0], Deal) else None


def _two_seat_clock(
    state: MatchState, made: Sequence[Event], now: datetime, waiting: Sequence[int]
) -> Command | None:
    """A join deadline for an invited seat not yet in, or the turn clock restarted (which
    also clears a join deadline once the players are in)."""
    options = state.options
    if not (options.turn_seconds or options.join_seconds or state.clock is not None):
        return None
    if state.phase is Phase.CUT and waiting:
        if options.join_seconds and state.clock is None:
            return AwaitJoin(seat=waiting[0], at=now)
        return None
    if options.turn_seconds or state.clock is not None:
        return StampTime(at=now)
    return None


def _two_seat_decided(
    state: MatchState, command: SeatCommand, seat: int, now: datetime
) -> list[Event]:
    return decide(state, command)


TWO_SEATS: MatchRules[MatchState, Event] = MatchRules(
    initial=new_match,
    start=lambda options, seats: StartMatch(options),
    decide=decide,
    fold=fold,
    legal_actions=legal_actions,
    redact=redact_events,
    endings=MATCH_ENDINGS,
    over=lambda state: state.phase is Phase.MATCH_OVER,
    system_step=_two_seat_step,
    cut=lambda seed: Cut(seed=seed),
    deal=lambda seed: Deal(seed=seed),
    joined=lambda seat: [SeatJoined(seat=seat)],
    decided=_two_seat_decided,
    clock_step=_two_seat_clock,
    deadline=lambda state: state.clock,
    hand_of=lambda state, seat: (state, seat),
    awaits=lambda state, seat: state.turn == seat,
    bot_view=view,
)


def _tables_step(state: FormatState) -> SystemStep | None:
    phase = state.phase
    return "cut" if phase is FormatPhase.CUT else "deal" if phase is FormatPhase.DEAL else None


def _stamp(state: FormatState, touched: Iterable[int], now: datetime) -> StampClocks | None:
    """The clocks to restart at ``now``: each table of the round where something happened."""
    tables = sorted(index for index in set(touched) if index < len(state.tables))
    if not state.options.turn_seconds or not tables or state.ending is not None:
        return None
    return StampClocks(at=now, tables=tables)


def _tables_clock(
    state: FormatState, made: Sequence[FormatEvent], now: datetime, waiting: Sequence[int]
) -> AwaitJoin | StampClocks | None:
    """One join deadline for every invited seat not yet in; once they are (the cut made), the
    clocks of the tables where something happened, or, without turn clocks, the join deadline
    cleared."""
    if state.phase is FormatPhase.CUT:
        if waiting and state.options.join_seconds and state.deadline is None:
            return AwaitJoin(seat=waiting[0], at=now)
        return None
    stamped = _stamp(state, (e.table for e in made if type(e) is TableEvent), now)
    deadline = state.deadline
    if stamped is None and deadline is not None and deadline.kind == "join" and deadline.due_at:
        return StampClocks(at=now, tables=[])
    return stamped


def _tables_decided(
    state: FormatState, command: SeatCommand, seat: int, now: datetime
) -> list[FormatEvent]:
    """A decision that ends the round first has the seat's table stamped (its time charged to
    the seat's bank), since the round's end replaces the table, clock and all. (A timeout
    spends the bank itself.)"""
    events = decide_format(state, command)
    table = state.table_of(seat)
    if table is None or not any(type(event) is RoundScored for event in events):
        return events
    stamped = _stamp(state, (table,), now)
    if stamped is None:
        return events
    charged = decide_format(state, stamped)
    return [*charged, *decide_format(fold_format(charged, state), command)]


def _table_hand(state: FormatState, seat: int) -> tuple[MatchState, int] | None:
    place = state.place_of(seat)
    return None if place is None else (state.hands[place[0]], place[1])


def _table_bot_view(state: FormatState, seat: int) -> SeatView:
    """The seat's own table as a two-player seat sees it (its commands name the table seat;
    the service names the match seat)."""
    place = _table_hand(state, seat)
    assert place is not None  # only asked of a seat the match waits on
    return view(*place)


THREE_OR_FOUR_SEATS: MatchRules[FormatState, FormatEvent] = MatchRules(
    initial=FormatState,
    start=lambda options, seats: StartFormatMatch(players=seats, options=options),  # type: ignore[arg-type]
    decide=decide_format,
    fold=fold_format,
    legal_actions=format_legal_actions,
    redact=redact_format_events,
    endings=FORMAT_MATCH_ENDINGS,
    over=lambda state: state.phase is FormatPhase.MATCH_OVER,
    system_step=_tables_step,
    cut=lambda seed: CutSeats(seed=seed),
    deal=lambda seed: DealTable(seed=seed),
    joined=lambda seat: [],
    decided=_tables_decided,
    clock_step=_tables_clock,
    deadline=lambda state: state.deadline,
    hand_of=_table_hand,
    awaits=lambda state, seat: bool(format_legal_actions(state, seat)),
    bot_view=_table_bot_view,
)


def rules_for(seats: int) -> MatchRules[Any, Any]:
    """The rules of a match of ``seats`` seats: the one place a seat count chooses them."""
    return TWO_SEATS if seats == 2 else THREE_OR_FOUR_SEATS


def as_seat(command: msgspec.Struct, seat: int) -> Any:
    """A bot's command (named from its table's view) sent for its match ``seat``."""
    return msgspec.structs.replace(command, seat=seat)
