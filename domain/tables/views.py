"""What each seat of a three- or four-player match, and a spectator, may know.

A seat sees its own hand and, at its own table, what a two-player seat sees there. A seat
sitting the hand out, a partner and an opponent at the other table see each table as a
spectator does: partners never see each other's cards. Once a table's hand is over its
cards are shown to everybody, as in the two-player game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import cast

import msgspec
from msgspec.structs import asdict, replace

from domain.events import HandDrawn, MatchEnded, Scored
from domain.options import RuleOptions
from domain.tables.commands import FormatCommand
from domain.tables.events import (
    FormatEvent,
    FormatGameWon,
    RoundScored,
    SeatsCut,
    TableEvent,
)
from domain.tables.legal import tables_legal_actions
from domain.tables.state import FormatPhase, Players, TablesState
from domain.views import TableView, hands_over, names_of, redact_event, table_view

# A table's hand ends no game, and its view has always said so with these targets, which no
# hand reaches (one scores at most (100 + 1000) * 2): what a client of the first release reads.
_HAND_ONLY_TARGETS = {"game_target": 10_000, "match_target": 0}


class SeatedTableView(msgspec.Struct, frozen=True):
    """One table's hand; every seat number inside ``view`` is a table seat, ``seats`` maps
    table seat to match seat."""

    table: int
    seats: list[int]
    view: TableView


class SidesScoresView(msgspec.Struct, frozen=True):
    """By side: seat in the three-player game, team (seats 0 and 2; 1 and 3) in the four."""

    hand_points: list[int]
    hands_won: list[int]
    match_scores: list[int]
    games_won: list[int]


class FormatTableView(msgspec.Struct, frozen=True, kw_only=True, repr_omit_defaults=True):
    """What everybody, spectators included, may know. Each table's turn clock is in its
    ``view`` (``clock``, with table seats); ``ending`` says how a match that ended other than
    by play ended (``winner`` and the scores by side)."""

    players: Players
    phase: FormatPhase
    turns: list[int]
    dealer_side: int | None
    sitting_out: int | None
    teams: list[list[int]] | None
    round: int
    game: int
    hand_number: int
    tables: list[SeatedTableView]
    scores: SidesScoresView
    cut: SeatsCut | None
    last_round: RoundScored | None
    last_hands: list[Scored | HandDrawn | None]
    last_game: FormatGameWon | None
    winner: int | None
    options: RuleOptions
    ending: MatchEnded | None = None
    # While invited seats are awaited with ``join_seconds``: when the match ends without them.
    join_due_at: datetime | None = None


class FormatSeatView(FormatTableView, frozen=True, kw_only=True):
    """The match as one seat sees it: its own cards and what it may do now."""

    seat: int
    table: int | None  # None: sitting this hand out
    hand: list[str]
    legal_actions: list[FormatCommand]


def tables_public_view(state: TablesState) -> FormatTableView:
    return _match_view(state, viewer=None)


def tables_view(state: TablesState, seat: int) -> FormatSeatView:
    index = state.table_of(seat)
    hand: list[str] = []
    if index is not None:
        table = state.tables[index]
        table_seat = table.table_seat(seat)
        assert table_seat is not None
        hand = names_of(table.state.hands[table_seat])
    return FormatSeatView(
        **asdict(_match_view(state, viewer=seat)),
        seat=seat,
        table=index,
        hand=hand,
        legal_actions=tables_legal_actions(state, seat),
    )


def _match_view(state: TablesState, viewer: int | None) -> FormatTableView:
    return FormatTableView(
        players=state.players,
        phase=state.phase,
        turns=[] if state.ending is not None else list(state.turns),
        dealer_side=state.dealer_side,
        sitting_out=state.sitting_out,
        teams=None if state.format.teams is None else [list(team) for team in state.format.teams],
        round=state.round,
        game=state.game,
        hand_number=state.hand,
        tables=[_table_view(state, index, viewer) for index in range(len(state.tables))],
        scores=SidesScoresView(
            list(state.hand_points),
            list(state.hands_won),
            list(state.match_scores),
            list(state.games_won),
        ),
        cut=state.cut,
        last_round=state.last_round,
        last_hands=list(state.last_hands),
        last_game=state.last_game,
        winner=state.winner,
        options=state.options,
        ending=state.ending,
        join_due_at=_join_due_at(state),
    )


def _join_due_at(state: TablesState) -> datetime | None:
    deadline = state.deadline
    if deadline is None or deadline.kind != "join" or state.phase is not FormatPhase.CUT:
        return None
    return deadline.due_at


def _table_view(state: TablesState, index: int, viewer: int | None) -> SeatedTableView:
    table = state.tables[index]
    # A seat's own table as a two-player seat sees it; its hand and its actions are the match
    # view's, with match seats.
    table_seat = None if viewer is None else table.table_seat(viewer)
    seen = replace(table_view(table.state, table_seat), options=_hand_options(state.options))
    return SeatedTableView(table=index, seats=list(table.seats), view=seen)


@lru_cache(maxsize=64)
def _hand_options(options: RuleOptions) -> RuleOptions:
    return replace(options, **_HAND_ONLY_TARGETS)


def redact_tables_events(
    events: Sequence[tuple[int, FormatEvent]], seat: int | None
) -> list[tuple[int, FormatEvent]]:
    """Each event as ``seat`` (None: a spectator) may see it, given that these events run up to
    the present: each table's events, round after round, as a two-player seat sees its match
    (``hands_over``), with the seat's table seat there."""
    by_table: dict[int, list[int]] = {}
    for position, (_, event) in enumerate(events):
        if isinstance(event, TableEvent):
            by_table.setdefault(event.table, []).append(position)
    redacted = list(events)
    for positions in by_table.values():
        table_events = [cast(TableEvent, events[position][1]) for position in positions]
        over = hands_over([event.event for event in table_events])
        for position, event, done in zip(positions, table_events, over, strict=True):
            table_seat = event.seats.index(seat) if seat in event.seats else None
            hidden = redact_event(event.event, table_seat, done)
            redacted[position] = (events[position][0], replace(event, event=hidden))
    return redacted
