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
    BigGin,
    CardsCut,
    ChooseDealer,
    Command,
    Cut,
    Deal,
    DealerChosen,
    Dealt,
    Discard,
    Discarded,
    DrawFromDiscard,
    DrawFromStock,
    Drew,
    Event,
    FinishLayoff,
    GameWon,
    HandDrawn,
    HandState,
    Knock,
    Knocked,
    LaidOff,
    LayOff,
    MatchCreated,
    MatchState,
    MatchWon,
    PassUpcard,
    Phase,
    Scored,
    StartMatch,
    TakeUpcard,
    UpcardPassed,
    decide,
    evolve,
    new_match,
)
from domain.commands import (
    Abandon,
    Adjudicate,
    AwaitJoin,
    NoShow,
    Resign,
    SeatCommand,
    StampTime,
    TimeOut,
)
from domain.endings import VERDICT_OF
from domain.errors import DomainError
from domain.events import DeadlineSet, MatchEnded, SeatJoined, SeatReturned, TimedOut
from domain.tables import (
    CutSeats,
    DealTable,
    FormatCommand,
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    RoundScored,
    SeatsCut,
    StartFormatMatch,
    TableEvent,
    TablesState,
    decide_tables,
    fold_tables,
)
from domain.tables.commands import StampClocks
from service.audit.event_diff import Discrepancy, first_difference, name
from service.audit.hand_text import game_ending, hand_ending, match_ended, match_ending, seat
from service.audit.verify_seeds import SeedBook
from service.fairness.seeds import CUT_LINK, deal_link

Report = Callable[[str], None]
S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E", bound=msgspec.Struct)


def check_play(events: Sequence[tuple[int, Event]], seeds: SeedBook, report: Report) -> MatchState:
    """The state the record's events lead to, each one checked; ``report`` hears of every
    hand, game and match as it ends."""
    state = new_match()
    index = 0
    while index < len(events):
        version, event = events[index]
        if isinstance(event, SeatJoined):
            # No player's move: the service records an invite taken, before the cut waits on it.
            _check_join(state, version, event)
            state = evolve(state, event)
            index += 1
            continue
        where = _where(state, event)
        produced = _decided_group(state, events, index, seeds, where)
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
) -> list[Event]:
    event = events[index][1]
    following = events[index + 1][1] if index + 1 < len(events) else None
    commands = implied_commands(state, _made_by(event, following), seeds)
    return decided_as_recorded(decide, state, commands, events, index, where, name(event))


def _made_by(event: Event, following: Event | None) -> Event:
    """The event whose command made ``event``: a seat's return, the seat's move after it."""
    return following if isinstance(event, SeatReturned) and following is not None else event


def decided_as_recorded(
    decide: Callable[[S, C], list[E]],
    state: S,
    commands: Sequence[C],
    events: Sequence[tuple[int, E]],
    index: int,
    where: str,
    named: str,
) -> list[E]:
    """The events the first of ``commands`` whose decision on ``state`` gives exactly the
    recorded events from ``events[index]`` on; else the first problem found (``where``
    before it, ``named`` the recorded event)."""
    version = events[index][0]
    problems: list[str] = []
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
            return produced
        problems.append(difference)
    if not problems:
        problems.append(f"version {version}: no move of a player or the server gives {named}")
    raise Discrepancy(where + problems[0])


def implied_commands(state: HandState, event: Event, seeds: SeedBook) -> list[Command]:
    """The commands that could have made ``event`` (a layoff may be the player's own, or one
    of those the service makes when the defender finishes)."""
    if isinstance(event, MatchCreated):
        return [StartMatch(options=event.options)]
    if isinstance(event, CardsCut):
        return [Cut(seed=seeds.seed_for(CUT_LINK))]
    if isinstance(event, DealerChosen):
        return [ChooseDealer(seat=event.seat, dealer=event.dealer)]
    if isinstance(event, Dealt):
        return [Deal(seed=seeds.seed_for(deal_link(state.deals + 1)))]
    if isinstance(event, UpcardPassed):
        return [PassUpcard(seat=event.seat)]
    if isinstance(event, Drew):
        return [_draw(state, event)]
    if isinstance(event, Discarded):
        return [Discard(seat=event.seat, card=event.card)]
    if isinstance(event, Knocked):
        if event.big_gin:
            return [BigGin(seat=event.seat, melds=event.melds)]
        return [Knock(seat=event.seat, card=event.card or "", melds=event.melds)]
    if isinstance(event, LaidOff):
        laid = LayOff(seat=event.seat, card=event.card, meld=event.meld)
        return [laid, FinishLayoff(seat=event.seat)]
    if isinstance(event, Scored) and state.phase is Phase.LAYOFF and state.turn is not None:
        return [FinishLayoff(seat=state.turn)]
    return _clock_or_ending(state, event)


def _clock_or_ending(state: HandState, event: Event) -> list[Command]:
    """A timeout is decided again at its recorded time: ``decide`` refuses one before the
    deadline the recorded clock set, and makes the documented default move, which must be the
    move recorded."""
    if isinstance(event, DeadlineSet):
        if event.kind == "join" and event.seat is not None:
            return [AwaitJoin(seat=event.seat, at=event.at)]
        return [StampTime(at=event.at)]
    if isinstance(event, TimedOut):
        if state.clock is not None and state.clock.kind == "join":
            return [NoShow(seat=event.seat, at=event.at, forfeit=f) for f in (True, False)]
        return [TimeOut(seat=event.seat, at=event.at)]
    if isinstance(event, MatchEnded):
        return [*_ending(event)]
    return []


def _ending(event: MatchEnded) -> list[Resign | Abandon | Adjudicate]:
    """The command that ends a match other than by play, at every table size."""
    if event.reason == "resigned" and event.seat is not None:
        return [Resign(seat=event.seat)]
    if event.reason == "abandoned":
        return [Abandon()]
    if event.reason in VERDICT_OF:
        verdict = VERDICT_OF[event.reason]
        return [Adjudicate(verdict=verdict, seat=event.seat, reason=event.note or "")]
    return []


def _draw(state: HandState, event: Drew) -> Command:
    if event.source == "stock":
        return DrawFromStock(seat=event.seat)
    if state.phase is Phase.OFFER:
        return TakeUpcard(seat=event.seat)
    return DrawFromDiscard(seat=event.seat)


def _where(state: MatchState, event: Event) -> str:
    if isinstance(event, Dealt):
        return f"game {state.game} hand {state.hand + 1}, "
    if state.deals and state.phase not in (Phase.DEAL, Phase.MATCH_OVER):
        return f"game {state.game} hand {state.hand}, "
    return ""


def _announce(event: Event, where: str, dealer: int | None, report: Report) -> None:
    if isinstance(event, Scored | HandDrawn):
        points = "" if isinstance(event, HandDrawn) else _listed(event.hand_points)
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
    index = 0
    while index < len(events):
        where = f"round {state.round}, " if state.round else ""
        produced = _decided_table_group(state, events, index, seeds, where)
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
) -> list[FormatEvent]:
    version, event = events[index]
    if isinstance(event, TableEvent) and not _in_play(state, event):
        raise Discrepancy(
            f"{where}version {version}: {_table_name(event)} is at table {event.table}, where "
            f"{_tables(state)}"
        )
    commands = _table_clock_or_ending(state, events, index)
    commands = commands or _table_commands(state, events, index, seeds)
    return decided_as_recorded(
        decide_tables, state, commands, events, index, where, _table_name(event)
    )


def _table_commands(
    state: TablesState, events: Sequence[tuple[int, FormatEvent]], index: int, seeds: SeedBook
) -> list[FormatCommand]:
    event = events[index][1]
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
    after = events[index + 1][1] if index + 1 < len(events) else None
    moved = after.event if isinstance(after, TableEvent) and after.table == event.table else None
    commands: list[FormatCommand] = []
    for command in implied_commands(table.state, _made_by(event.event, moved), seeds):
        if isinstance(command, SeatCommand) and command.seat in (0, 1):
            commands.append(msgspec.structs.replace(command, seat=table.seats[command.seat]))
    return commands


def _table_clock_or_ending(
    state: TablesState, events: Sequence[tuple[int, FormatEvent]], index: int
) -> list[FormatCommand]:
    """The command implied by a resignation, a timeout or a restart of the tables' clocks
    (the tables stamped together, up to the match's next deadline they lead to)."""
    event = events[index][1]
    if isinstance(event, MatchEnded):
        return [*_ending(event)]
    if isinstance(event, DeadlineSet):  # the match's next deadline, no table's clock moving
        if event.kind == "join" and event.due_at is not None:
            return [AwaitJoin(seat=0, at=event.at)]  # one deadline, for every invited seat
        return [StampClocks(at=event.at, tables=[])]
    if isinstance(event, TimedOut):  # a no-show: the operator's choice made it a forfeit or not
        return [NoShow(seat=event.seat, at=event.at, forfeit=f) for f in (True, False)]
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


def _in_play(state: TablesState, event: TableEvent) -> bool:
    """Whether the event's table is in play (a recorded table number may be any number)."""
    return 0 <= event.table < len(state.tables)


def _tables(state: TablesState) -> str:
    count = len(state.tables)
    if count == 0:
        return "no table is in play"
    return "table 0 is in play" if count == 1 else f"tables 0 to {count - 1} are in play"


def _table_name(event: FormatEvent) -> str:
    return name(event.event) if isinstance(event, TableEvent) else name(event)


def _announce_table(state: TablesState, event: FormatEvent, report: Report) -> None:
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
