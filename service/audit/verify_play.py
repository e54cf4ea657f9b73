"""Re-running a record through the rules. For each recorded event the verifier names the
command it implies (``Drew`` from the stock: ``DrawFromStock``; ``Dealt``: ``Deal`` with the
seed recomputed from the revealed server seed and the seats' entropy) and asks ``decide`` for
its events: they must be exactly the recorded ones, the deal card by card and the scores and
bonuses to the point. Nothing recorded is trusted; every state is the fold of decided events.

At three and four seats (``check_tables_play``) a table's event implies the two-player command
of its table seat, sent with its match seat, a deal ``DealTable`` with the seed recomputed for
that deal, and ``decide_tables`` must give exactly the recorded events, round scores,
settlements and match scores included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import msgspec

from domain import (
    Command,
    Dealt,
    Event,
    GameWon,
    HandDrawn,
    MatchState,
    MatchWon,
    Phase,
    Scored,
    decide,
    evolve,
    new_match,
)
from domain.errors import DomainError
from domain.events import MatchEnded, SeatJoined
from domain.match_rules import TWO_SEATS, rules_for
from domain.tables import (
    FormatCommand,
    FormatEvent,
    FormatGameWon,
    FormatMatchWon,
    RoundScored,
    TableEvent,
    TablesState,
    decide_tables,
    fold_tables,
    unwrapped,
)
from service.audit.clock_steps import ClockSteps
from service.audit.event_diff import Discrepancy, first_difference, name
from service.audit.hand_text import (
    game_ending,
    hand_ending,
    listed,
    match_ended,
    match_ending,
    seat,
)
from service.audit.implied_commands import (
    implied_commands,
    in_play,
    made_by,
    table_clock_or_ending,
    table_commands,
)
from service.audit.verify_seeds import SeedBook

Report = Callable[[str], None]
S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E", bound=msgspec.Struct)


def check_play(events: Sequence[tuple[int, Event]], seeds: SeedBook, report: Report) -> MatchState:
    """The state the record's events lead to, each one checked; ``report`` hears of every
    hand, game and match as it ends."""
    state = new_match()
    clock = ClockSteps(TWO_SEATS)
    index = 0
    while index < len(events):
        version, event = events[index]
        where = _where(state, event)
        stamp = clock.before(state, events, index, where)
        if isinstance(event, SeatJoined):
            # No player's move: the service records an invite taken, before the cut waits on it.
            _check_join(state, version, event)
            produced: list[Event] = [event]
        else:
            produced = _decided_group(state, events, index, seeds, where, stamp)
        clock.decided(produced)
        dealer = state.dealer
        for event in produced:
            state = evolve(state, event)
            _announce(event, where, dealer, report)
        index += len(produced)
    return state


def _check_join(state: MatchState, version: int, event: SeatJoined) -> None:
    if state.phase is not Phase.CUT or event.seat not in (0, 1):
        raise Discrepancy(
            f"version {version}: a join of seat {event.seat} outside the wait for the cut"
        )


def _decided_group(
    state: MatchState,
    events: Sequence[tuple[int, Event]],
    index: int,
    seeds: SeedBook,
    where: str,
    stamp: Command | None,
) -> list[Event]:
    """The group of events from ``events[index]`` a command decides: ``stamp`` when it is the
    clock's step due, else the one the event implies."""
    event = events[index][1]
    following = events[index + 1][1] if index + 1 < len(events) else None
    commands = [stamp] if stamp else implied_commands(state, made_by(event, following), seeds)
    return decided_as_recorded(decide, state, commands, events, index, where, name(event))


def decided_as_recorded(
    decide: Callable[[S, C], list[E]],
    state: S,
    commands: Sequence[C],
    events: Sequence[tuple[int, E]],
    index: int,
    where: str,
    named: str,
) -> list[E]:
    """The most events one of ``commands`` decides on ``state`` that are exactly the recorded
    events from ``events[index]`` on (the defender's finish that lays off two cards, rather
    than a layoff of the first, since the clock is stamped after each decision); else the
    first problem found (``where`` before it, ``named`` the recorded event)."""
    version = events[index][0]
    problems: list[str] = []
    found: list[E] = []
    for command in commands:
        try:
            produced = decide(state, command)
        except DomainError as error:
            problems.append(f"version {version}: {named} breaks the rules: {error}")
            continue
        if not produced:  # a decision of nothing accounts for no recorded event
            continue
        recorded = events[index : index + len(produced)]
        difference = first_difference(recorded, produced, version - 1)
        if difference is None:
            found = max(found, produced, key=len)
        else:
            problems.append(difference)
    if found:
        return found
    if not problems:
        problems.append(f"version {version}: no move of a player or the server gives {named}")
    raise Discrepancy(where + problems[0])


def _where(state: MatchState, event: Event) -> str:
    if isinstance(event, Dealt):
        return f"game {state.game} hand {state.hand + 1}, "
    if state.deals and state.phase not in (Phase.DEAL, Phase.MATCH_OVER):
        return f"game {state.game} hand {state.hand}, "
    return ""


def _announce(event: Event, where: str, dealer: int | None, report: Report) -> None:
    if isinstance(event, Scored | HandDrawn):
        points = "" if isinstance(event, HandDrawn) else listed(event.hand_points)
        scores = points and f"; hand points {points}"
        report(f"{where.rstrip(', ')}: {seat(dealer)} dealt; {hand_ending(event)}{scores}")
    elif isinstance(event, GameWon):
        report(game_ending(event))
    elif isinstance(event, MatchWon):
        report(match_ending(event))
    elif isinstance(event, MatchEnded):
        report(match_ended(event))


def check_tables_play(
    events: Sequence[tuple[int, FormatEvent]], seeds: SeedBook, report: Report
) -> TablesState:
    """The state the record's events lead to, each one checked; ``report`` hears of every
    hand, round, game and match as it ends."""
    state = TablesState()
    clock: ClockSteps[TablesState, FormatEvent] = ClockSteps(rules_for(state.players))
    index = 0
    while index < len(events):
        where = f"round {state.round}, " if state.round else ""
        stamp = clock.before(state, events, index, where)
        produced = _decided_table_group(state, events, index, seeds, where, stamp)
        clock.decided(produced)
        for made in produced:
            _announce_table(state, made, report)
            state = fold_tables([made], state)
        index += len(produced)
    return state


def _decided_table_group(
    state: TablesState,
    events: Sequence[tuple[int, FormatEvent]],
    index: int,
    seeds: SeedBook,
    where: str,
    stamp: FormatCommand | None,
) -> list[FormatEvent]:
    version, event = events[index]
    named = name(unwrapped(event))
    if isinstance(event, TableEvent) and not in_play(state, event):
        raise Discrepancy(
            f"{where}version {version}: {named} is at table {event.table}, where {_tables(state)}"
        )
    commands = [stamp] if stamp else table_clock_or_ending(state, events, index)
    commands = commands or table_commands(state, events, index, seeds)
    return decided_as_recorded(decide_tables, state, commands, events, index, where, named)


def _tables(state: TablesState) -> str:
    count = len(state.tables)
    if count == 0:
        return "no table is in play"
    return "table 0 is in play" if count == 1 else f"tables 0 to {count - 1} are in play"


def _announce_table(state: TablesState, event: FormatEvent, report: Report) -> None:
    if isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
        first, second = event.seats
        report(
            f"round {state.round} table {event.table} (seats {first} and {second} as table "
            f"seats 0 and 1): {hand_ending(event.event)}"
        )
    elif isinstance(event, RoundScored):
        scorer = "nobody scores" if event.winner is None else f"{event.net} to side {event.winner}"
        report(f"round {event.round} over: {scorer}; hand points {listed(event.hand_points)}")
    elif isinstance(event, FormatGameWon):
        report(
            f"game {event.game} won by side {event.winner}; match scores "
            f"{listed(event.match_scores)}"
        )
    elif isinstance(event, FormatMatchWon):
        report(f"match won by side {event.winner}: {listed(event.match_scores)}")
    elif isinstance(event, MatchEnded):
        report(f"match ended ({event.reason}, seat {event.seat}): won by side {event.winner}")
