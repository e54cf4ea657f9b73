"""The command a recorded event implies: the verifier decides it again, and the rules must
give exactly the recorded events. ``Drew`` from the stock implies ``DrawFromStock``; ``Dealt``
a ``Deal`` with the seed recomputed from the revealed server seed and the seats' entropy; a
table's event the two-player command of its table seat, sent with its match seat.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    HandState,
    Knock,
    Knocked,
    LaidOff,
    LayOff,
    MatchCreated,
    PassUpcard,
    Phase,
    Scored,
    StartMatch,
    TakeUpcard,
    UpcardPassed,
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
from domain.events import DeadlineSet, MatchEnded, SeatReturned, TimedOut
from domain.tables import (
    CutSeats,
    DealTable,
    FormatCommand,
    FormatEvent,
    FormatMatchCreated,
    SeatsCut,
    StartFormatMatch,
    TableEvent,
    TablesState,
)
from domain.tables.commands import StampClocks
from service.audit.verify_seeds import SeedBook
from service.fairness.seeds import CUT_LINK, deal_link


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
        if event.kind == "join":
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


def table_commands(
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
    if not isinstance(event, TableEvent) or not in_play(state, event):
        return []
    if isinstance(event.event, Dealt):
        return [DealTable(seed=seeds.seed_for(deal_link(state.deals + 1)))]
    table = state.tables[event.table]
    after = events[index + 1][1] if index + 1 < len(events) else None
    moved = after.event if isinstance(after, TableEvent) and after.table == event.table else None
    commands: list[FormatCommand] = []
    for command in implied_commands(table.state, made_by(event.event, moved), seeds):
        if isinstance(command, SeatCommand) and command.seat in (0, 1):
            commands.append(msgspec.structs.replace(command, seat=table.seats[command.seat]))
    return commands


def table_clock_or_ending(
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
    if not isinstance(event, TableEvent) or not in_play(state, event):
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


def in_play(state: TablesState, event: TableEvent) -> bool:
    """Whether the event's table is in play (a recorded table number may be any number)."""
    return 0 <= event.table < len(state.tables)


def made_by(event: Event, following: Event | None) -> Event:
    """The event whose command made ``event``: a seat's return, the seat's move after it."""
    return following if isinstance(event, SeatReturned) and following is not None else event
