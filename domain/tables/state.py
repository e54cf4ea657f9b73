"""The state of a three- or four-player match: a frozen fold of its events.

Each table holds a two-player hand state whose seats 0 and 1 are the match seats ``seats``.
Scores are kept per side (a player in the three-player game, a team in the four-player game).
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from domain.events import DeadlineSet, HandDrawn, MatchEnded, Scored
from domain.options import RuleOptions
from domain.rules_versions import UNVERSIONED, RulesVersion
from domain.state import HandState
from domain.tables.events import (
    FormatGameWon,
    FormatMatchCreated,
    Players,
    RoundScored,
    SeatsCut,
)
from domain.tables.formats import FORMATS, TableFormat

__all__ = [
    "FormatPhase",
    "Players",
    "SeatedHand",
    "TablesState",
]


class FormatPhase(StrEnum):
    START = "start"
    CUT = "cut"  # the service cuts for the first deal
    DEAL = "deal"  # a table of the round waits for its deal
    PLAY = "play"  # every table is dealt; some hand is still being played
    MATCH_OVER = "match_over"


class SeatedHand(msgspec.Struct, frozen=True, gc=False):
    """A two-player hand at a table: ``seats[t]`` is the match seat at table seat ``t``."""

    seats: tuple[int, int]
    state: HandState

    @property
    def dealt(self) -> bool:
        return self.state.deals > 0

    @property
    def over(self) -> bool:
        return self.state.last_hand is not None

    def table_seat(self, seat: int) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None


class TablesState(msgspec.Struct, frozen=True, gc=False):
    players: Players = 3
    options: RuleOptions = RuleOptions()
    rules_version: RulesVersion = UNVERSIONED
    phase: FormatPhase = FormatPhase.START
    cut: SeatsCut | None = None
    dealer_side: int | None = None
    sitting_out: int | None = None
    round: int = 0  # rounds dealt in the match, the current one included
    deals: int = 0  # hands dealt in the match at every table: each has its own seed
    game: int = 1
    hand: int = 0  # rounds dealt in this game, the current one included
    # By table, its two-player hand and the match seats at its table seats 0 and 1 (together:
    # ``tables``). Kept apart, so that a move makes only its table's new hand.
    hands: tuple[HandState, ...] = ()
    table_seats: tuple[tuple[int, int], ...] = ()
    # By match seat, where it plays this round: (table, table seat), None sitting out. Every
    # move looks its seat up here.
    places: tuple[tuple[int, int] | None, ...] = ()
    # The match seats expected to act now (two at once in the four-player game), by table:
    # kept up to date by every event that changes a hand, as it is asked before every move.
    turns: list[int] = msgspec.field(default_factory=list)
    hand_points: tuple[int, ...] = ()  # by side, this game
    hands_won: tuple[int, ...] = ()  # by side, this game
    match_scores: tuple[int, ...] = ()
    games_won: tuple[int, ...] = ()
    last_round: RoundScored | None = None
    last_hands: tuple[Scored | HandDrawn | None, ...] = ()  # by table, of the last round
    last_game: FormatGameWon | None = None
    winner: int | None = None  # the side that won the match
    ending: MatchEnded | None = None  # how the match ended, when not by play
    # The turn clocks (each table's hand keeps its own, ``HandState.clock``): the match's
    # next deadline, and by match seat what each table's clock hands on to the next round.
    deadline: DeadlineSet | None = None
    banks_ms: tuple[int, ...] = ()
    timeouts: tuple[int, ...] = ()  # consecutive timeouts

    @property
    def seats(self) -> range:
        return range(self.players)

    @property
    def format(self) -> TableFormat:
        return FORMATS[self.players]

    @property
    def sides(self) -> int:
        return self.format.sides

    def side_of(self, seat: int) -> int:
        return self.format.side_by_seat[seat]

    def table_of(self, seat: int) -> int | None:
        place = self.place_of(seat)
        return None if place is None else place[0]

    def place_of(self, seat: int) -> tuple[int, int] | None:
        """Where ``seat`` plays this round: its table and its table seat; None sitting out."""
        places = self.places
        return places[seat] if 0 <= seat < len(places) else None

    @property
    def tables(self) -> tuple[SeatedHand, ...]:
        """Each table's hand with its match seats."""
        return tuple(map(SeatedHand, self.table_seats, self.hands))


def created(event: FormatMatchCreated) -> TablesState:
    zeros = (0,) * FORMATS[event.players].sides
    options = event.options
    return TablesState(
        players=event.players,
        options=event.options,
        rules_version=event.rules_version,
        phase=FormatPhase.CUT,
        hand_points=zeros,
        hands_won=zeros,
        match_scores=zeros,
        games_won=zeros,
        banks_ms=(options.bank_seconds * 1000,) * event.players,
        timeouts=(0,) * event.players,
    )
