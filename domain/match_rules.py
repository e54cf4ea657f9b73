"""What differs between a match of two seats and one of three or four, as data and functions:
one ``MatchRules`` per table size, chosen once by seat count (``rules_for``), so that every use
case of the service is written once.

Two seats play one two-player hand at a time (``domain.decide`` and friends); three and four
play a round of tables, each a two-player hand under the match (``domain.tables``). The
service asks a match's rules for its state, its decisions, the steps nobody at the table
takes (the cut and the deals, whose seeds the service supplies), its clocks and what a seat or
a bot sees, what a view, a summary or a player's list shows, and how far the seeds have gone;
it never asks how many seats a match has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Generic, Literal, NamedTuple, TypeVar

import msgspec

from domain.commands import AwaitJoin, Command, Cut, Deal, SeatCommand, StampTime, StartMatch
from domain.decide import decide
from domain.events import MATCH_ENDINGS, DeadlineSet, Event, GameWon, HandDrawn, Scored, SeatJoined
from domain.evolve import fold
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import HandState, MatchState, Phase, new_match
from domain.tables.commands import CutSeats, DealTable, StampClocks, StartFormatMatch
from domain.tables.decide import decide_tables
from domain.tables.events import (
    FORMAT_MATCH_ENDINGS,
    FormatEvent,
    FormatGameWon,
    RoundScored,
    TableEvent,
)
from domain.tables.evolve import fold_tables
from domain.tables.legal import tables_legal_actions
from domain.tables.state import FormatPhase, TablesState
from domain.tables.views import redact_tables_events, tables_public_view, tables_view
from domain.views import SeatView, public_view, redact_events, view

S = TypeVar("S")
E = TypeVar("E")
SystemStep = Literal["cut", "deal"]
# The shape of a match's views and summaries, as clients tell them apart.
Shape = Literal["two_players", "three_or_four_players"]


class SeedProgress(NamedTuple):
    """How far a match's seeds have gone: whether the cut is made, the hands dealt, how many
    of those (in deal order) may have their seed revealed, whether the match is over, and
    ``per_round``: the hands dealt at once (at every table of a round)."""

    cut: bool
    deals: int
    revealed: int
    match_over: bool
    per_round: int = 1


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
    hand_of: Callable[[S, int], tuple[HandState, int] | None]
    awaits: Callable[[S, int], bool]  # whether the match waits on ``seat``'s move
    bot_view: Callable[[S, int], SeatView]  # what a bot at ``seat`` decides on
    seats: int
    tables_per_round: int  # hands dealt at once (each with its own seed)
    shape: Shape
    view: Callable[[S, int], Any]  # what ``seat`` sees
    public_view: Callable[[S], Any]  # what anybody sees
    turns: Callable[[S], tuple[int, ...]]  # the seats the match waits on
    winner: Callable[[S], int | None]  # the side that won: a seat, or a team at four seats
    restamp: Callable[[S, datetime], Any]  # the command that stamps every clock at a time
    seeds: Callable[[S], SeedProgress]
    # The summary's record of play: every finished hand (round) and game, by field name.
    finished: Callable[[Sequence[E]], dict[str, list[Any]]]


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
            # Both seats invited: one deadline for both, as at three and four seats.
            return AwaitJoin(seat=waiting[0] if len(waiting) == 1 else None, at=now)
        return None
    if options.turn_seconds or state.clock is not None:
        return StampTime(at=now)
    return None


def _two_seat_decided(
    state: MatchState, command: SeatCommand, seat: int, now: datetime
) -> list[Event]:
    return decide(state, command)


def _two_seat_seeds(state: MatchState) -> SeedProgress:
    # A match that ended mid-hand reveals that hand's seed too: the record shows it all.
    over = state.phase is Phase.MATCH_OVER
    deals = state.deals
    return SeedProgress(
        state.cut is not None, deals, deals if state.hand_over or over else max(0, deals - 1), over
    )


def _two_seat_finished(events: Sequence[Event]) -> dict[str, list[Any]]:
    return {
        "hands": [event for event in events if isinstance(event, Scored | HandDrawn)],
        "games": [event for event in events if isinstance(event, GameWon)],
    }


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
    seats=2,
    tables_per_round=1,
    shape="two_players",
    view=view,
    public_view=public_view,
    turns=lambda state: () if state.turn is None else (state.turn,),
    winner=lambda state: state.winner,
    restamp=lambda state, at: StampTime(at=at),
    seeds=_two_seat_seeds,
    finished=_two_seat_finished,
)


def _tables_step(state: TablesState) -> SystemStep | None:
    phase = state.phase
    return "cut" if phase is FormatPhase.CUT else "deal" if phase is FormatPhase.DEAL else None


def _stamp(state: TablesState, touched: Iterable[int], now: datetime) -> StampClocks | None:
    """The clocks to restart at ``now``: each table of the round where something happened."""
    tables = sorted(index for index in set(touched) if index < len(state.tables))
    if not state.options.turn_seconds or not tables or state.ending is not None:
        return None
    return StampClocks(at=now, tables=tables)


def _tables_clock(
    state: TablesState, made: Sequence[FormatEvent], now: datetime, waiting: Sequence[int]
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
    state: TablesState, command: SeatCommand, seat: int, now: datetime
) -> list[FormatEvent]:
    """A decision that ends the round first has the seat's table stamped (its time charged to
    the seat's bank), since the round's end replaces the table, clock and all. (A timeout
    spends the bank itself.)"""
    events = decide_tables(state, command)
    table = state.table_of(seat)
    if table is None or not any(type(event) is RoundScored for event in events):
        return events
    stamped = _stamp(state, (table,), now)
    if stamped is None:
        return events
    charged = decide_tables(state, stamped)
    return [*charged, *decide_tables(fold_tables(charged, state), command)]


def _table_hand(state: TablesState, seat: int) -> tuple[HandState, int] | None:
    place = state.place_of(seat)
    return None if place is None else (state.hands[place[0]], place[1])


def _table_bot_view(state: TablesState, seat: int) -> SeatView:
    """The seat's own table as a two-player seat sees it (its commands name the table seat;
    the service names the match seat)."""
    place = _table_hand(state, seat)
    assert place is not None  # only asked of a seat the match waits on
    return view(*place)


def _tables_seeds(state: TablesState) -> SeedProgress:
    """A seed of a match of tables is revealed only once the hand it dealt and every hand
    dealt before it are over: in the four-player game the second table's seed waits for the
    first table's hand, since it would give the first table's link (and so its deck) while
    that hand is in play. One table plays at a time in the three-player game, so there the
    rule is the two-player one: the seat sitting out learns each deck only once its hand ends.
    """
    dealt = [table for table in state.tables if table.dealt]
    over = 0
    for table in dealt:  # tables are dealt in order, so deal order is table order
        if not table.over:
            break
        over += 1
    match_over = state.phase is FormatPhase.MATCH_OVER
    # A match that ended mid-round reveals that round's seeds too: its record shows it all.
    deals = state.deals
    revealed = deals if match_over else deals - len(dealt) + over
    return SeedProgress(
        state.cut is not None, deals, revealed, match_over, max(1, len(state.table_seats))
    )


def _tables_finished(events: Sequence[FormatEvent]) -> dict[str, list[Any]]:
    return {
        "hands": [
            event
            for event in events
            if isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn)
        ],
        "rounds": [event for event in events if isinstance(event, RoundScored)],
        "games": [event for event in events if isinstance(event, FormatGameWon)],
    }


THREE_SEATS: MatchRules[TablesState, FormatEvent] = MatchRules(
    initial=TablesState,
    start=lambda options, seats: StartFormatMatch(players=seats, options=options),  # type: ignore[arg-type]
    decide=decide_tables,
    fold=fold_tables,
    legal_actions=tables_legal_actions,
    redact=redact_tables_events,
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
    awaits=lambda state, seat: bool(tables_legal_actions(state, seat)),
    bot_view=_table_bot_view,
    seats=3,
    tables_per_round=1,
    shape="three_or_four_players",
    view=tables_view,
    public_view=tables_public_view,
    # A match ended other than by play keeps its hands' turns where they stopped: nobody's.
    turns=lambda state: () if state.ending is not None else tuple(state.turns),
    winner=lambda state: state.winner,
    restamp=lambda state, at: StampClocks(at=at, tables=list(range(len(state.tables)))),
    seeds=_tables_seeds,
    finished=_tables_finished,
)
FOUR_SEATS: MatchRules[TablesState, FormatEvent] = replace(THREE_SEATS, seats=4, tables_per_round=2)
_BY_SEATS: dict[int, MatchRules[Any, Any]] = {
    rules.seats: rules for rules in (TWO_SEATS, THREE_SEATS, FOUR_SEATS)
}


def rules_for(seats: int) -> MatchRules[Any, Any]:
    """The rules of a match of ``seats`` seats: the one place a seat count chooses them."""
    return _BY_SEATS[seats]


def as_seat(command: msgspec.Struct, seat: int) -> Any:
    """A bot's command (named from its table's view) sent for its match ``seat``."""
    return msgspec.structs.replace(command, seat=seat)
