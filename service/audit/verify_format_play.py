"""Re-running a three- or four-player record through the rules, as ``verify_play`` does for
two players: each recorded event names the command it implies (a table's event the
two-player command of its table seat, sent with its match seat; a deal ``DealTable`` with the
seed recomputed for that deal, so for that table) and ``decide_format`` must give exactly the
recorded events, round scores, settlements and match scores included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain.commands import Abandon, Adjudicate, Resign, SeatCommand, TimeOut
from domain.endings import VERDICT_OF
from domain.events import DeadlineSet, Dealt, HandDrawn, MatchEnded, Scored, TimedOut
from domain.formats import (
    CutSeats,
    DealTable,
    FormatCommand,
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    FormatState,
    RoundScored,
    SeatsCut,
    StartFormatMatch,
    TableEvent,
    decide_format,
    fold_format,
)
from domain.formats.commands import StampClocks
from service.audit.event_diff import Discrepancy, name
from service.audit.hand_text import hand_ending
from service.audit.verify_play import decided_as_recorded, implied_commands
from service.audit.verify_seeds import SeedBook
from service.fairness.seeds import CUT_LINK, deal_link

Report = Callable[[str], None]


def check_format_play(
    events: Sequence[tuple[int, FormatEvent]], seeds: SeedBook, report: Report
) -> FormatState:
    """The state the record's events lead to, each one checked; ``report`` hears of every
    hand, round, game and match as it ends."""
    state = FormatState()
    index = 0
    while index < len(events):
        where = f"round {state.round}, " if state.round else ""
        produced = _decided_group(state, events, index, seeds, where)
        for made in produced:
            _announce(state, made, report)
            state = fold_format([made], state)
        index += len(produced)
    return state


def _decided_group(
    state: FormatState,
    events: Sequence[tuple[int, FormatEvent]],
    index: int,
    seeds: SeedBook,
    where: str,
) -> list[FormatEvent]:
    version, event = events[index]
    if isinstance(event, TableEvent) and not _in_play(state, event):
        raise Discrepancy(
            f"{where}version {version}: {_name(event)} is at table {event.table}, where "
            f"{_tables(state)}"
        )
    commands = _clock_or_ending(state, events, index) or _commands(state, event, seeds)
    return decided_as_recorded(decide_format, state, commands, events, index, where, _name(event))


def _commands(state: FormatState, event: FormatEvent, seeds: SeedBook) -> list[FormatCommand]:
    if isinstance(event, FormatMatchCreated):
        # Under the rules version the match recorded: the reading its rounds were scored by.
        return [
            StartFormatMatch(
                players=event.players, options=event.options, rules_version=event.rules_version
            )
        ]
    if isinstance(event, SeatsCut):
        return [CutSeats(seed=seeds.seed_for(CUT_LINK))]
    if not isinstance(event, TableEvent) or not _in_play(state, event):
        return []
    if isinstance(event.event, Dealt):
        return [DealTable(seed=seeds.seed_for(deal_link(state.deals + 1)))]
    table = state.tables[event.table]
    commands: list[FormatCommand] = []
    for command in implied_commands(table.state, event.event, seeds):
        if isinstance(command, SeatCommand) and command.seat in (0, 1):
            commands.append(msgspec.structs.replace(command, seat=table.seats[command.seat]))
    return commands


def _clock_or_ending(
    state: FormatState, events: Sequence[tuple[int, FormatEvent]], index: int
) -> list[FormatCommand]:
    """The command implied by a resignation, a timeout or a restart of the tables' clocks
    (the tables stamped together, up to the match's next deadline they lead to)."""
    event = events[index][1]
    if isinstance(event, MatchEnded) and event.reason == "resigned" and event.seat is not None:
        return [Resign(seat=event.seat)]
    if isinstance(event, MatchEnded) and event.reason == "abandoned":
        return [Abandon()]
    if isinstance(event, MatchEnded) and event.reason in VERDICT_OF:
        verdict = VERDICT_OF[event.reason]
        return [Adjudicate(verdict=verdict, seat=event.seat, reason=event.note or "")]
    if isinstance(event, DeadlineSet):  # the match's next deadline, no table's clock moving
        return [StampClocks(at=event.at, tables=[])]
    if not isinstance(event, TableEvent) or not _in_play(state, event):
        return []
    inner = event.event
    if isinstance(inner, TimedOut):
        seats = state.tables[event.table].seats
        if inner.seat not in (0, 1):
            return []  # no table seat's clock: nothing the server decides gives it
        return [TimeOut(seat=seats[inner.seat], at=inner.at)]
    if not isinstance(inner, DeadlineSet):
        return []
    tables = []
    for _, later in events[index:]:
        if not isinstance(later, TableEvent) or not isinstance(later.event, DeadlineSet):
            break
        if later.event.at != inner.at or later.table in tables:
            break  # the next stamp, made at the same instant
        tables.append(later.table)
    return [StampClocks(at=inner.at, tables=tables)]


def _in_play(state: FormatState, event: TableEvent) -> bool:
    """Whether the event's table is in play: a recorded table number is only a number
    (negative, or past the tables, no command can give it)."""
    return 0 <= event.table < len(state.tables)


def _tables(state: FormatState) -> str:
    count = len(state.tables)
    if count == 0:
        return "no table is in play"
    return "table 0 is in play" if count == 1 else f"tables 0 to {count - 1} are in play"


def _name(event: FormatEvent) -> str:
    return name(event.event) if isinstance(event, TableEvent) else name(event)


def _announce(state: FormatState, event: FormatEvent, report: Report) -> None:
    if isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
        first, second = event.seats
        report(
            f"round {state.round} table {event.table} (seats {first} and {second} as table "
            f"seats 0 and 1): {hand_ending(event.event)}"
        )
    elif isinstance(event, RoundScored):
        scorer = "nobody scores" if event.winner is None else f"{event.net} to side {event.winner}"
        report(f"round {event.round} over: {scorer}; hand points {_listed(event.hand_points)}")
    elif isinstance(event, FormatGameWon):
        report(
            f"game {event.game} won by side {event.winner}; match scores "
            f"{_listed(event.match_scores)}"
        )
    elif isinstance(event, FormatMatchWon):
        report(f"match won by side {event.winner}: {_listed(event.match_scores)}")
    elif isinstance(event, MatchEnded):
        report(f"match ended ({event.reason}, seat {event.seat}): won by side {event.winner}")


def _listed(values: Sequence[int]) -> str:
    return "-".join(str(value) for value in values)
