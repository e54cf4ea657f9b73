"""The state of a match: a frozen fold of its events, holding everything, hidden or not.

Cards are ints and hands bitmasks (``domain.cards``); what a seat may see is cut out of this
by ``domain.views``. Every field changes only in ``domain.evolve``.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from domain.cards import Card, Mask
from domain.events import CardsCut, DeadlineSet, GameWon, HandDrawn, MatchEnded, Scored
from domain.options import RuleOptions


class Phase(StrEnum):
    START = "start"
    CUT = "cut"  # the service cuts for the first deal
    CHOOSE_DEALER = "choose_dealer"  # the winner of the cut names the dealer
    DEAL = "deal"  # the service deals the next hand
    OFFER = "offer"  # the upcard is offered: non-dealer, then dealer; then a stock draw
    DRAW = "draw"
    DISCARD = "discard"  # after a draw: discard, knock or big gin
    LAYOFF = "layoff"  # the defender lays off onto the knocker's melds
    MATCH_OVER = "match_over"


class KnockState(msgspec.Struct, frozen=True):
    """What the knocker showed; ``melds`` grow as the defender lays off onto them."""

    knocker: int
    card: Card | None  # face down until the hand is over; None for big gin
    shown_melds: tuple[Mask, ...]
    melds: tuple[Mask, ...]
    deadwood: Mask
    count: int
    gin: bool
    big_gin: bool
    layoffs: tuple[tuple[Card, int], ...] = ()
    laid_off: Mask = 0


class HandState(msgspec.Struct, frozen=True):
    """A two-player hand: the deal, the turns, the knock and its score. The hand of a
    two-player match (``MatchState``) and each table's hand of a larger match alike."""

    options: RuleOptions = RuleOptions()
    phase: Phase = Phase.START
    turn: int | None = None  # the seat expected to act, if any
    dealer: int | None = None
    game: int = 1
    hand: int = 0  # hands dealt in this game, the current one included
    deals: int = 0  # hands dealt in the match, the current one included
    hands: tuple[Mask, Mask] = (0, 0)
    stock: tuple[Card, ...] = ()  # in draw order; cards before stock_next are gone
    stock_next: int = 0
    pile: tuple[Card, ...] = ()  # face up, top last
    upcard_passes: int = 0
    pile_card: Card | None = None  # taken from the pile this turn: it may not go back
    from_pile: tuple[Mask, Mask] = (0, 0)  # cards each seat took from the pile and still holds
    knock_limit: int = 10
    multiplier: int = 1
    knock: KnockState | None = None
    # The game's running totals by seat as the hand's score leaves them (a table's hand, which
    # ends no game, starts at zero).
    hand_points: tuple[int, int] = (0, 0)
    hands_won: tuple[int, int] = (0, 0)
    last_hand: Scored | HandDrawn | None = None
    clock: DeadlineSet | None = None  # the turn clock as last set; None without one
    timeouts: tuple[int, int] = (0, 0)  # each seat's consecutive timeouts

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_next

    @property
    def hand_over(self) -> bool:
        """Between hands: every card of the last hand may be shown."""
        return self.last_hand is not None and self.phase is Phase.DEAL


class MatchState(HandState, frozen=True):
    """A two-player match: its hand, and the cut, the games and the match around it."""

    cut: CardsCut | None = None
    match_scores: tuple[int, int] = (0, 0)
    games_won: tuple[int, int] = (0, 0)
    last_game: GameWon | None = None
    winner: int | None = None
    ending: MatchEnded | None = None  # how the match ended, when not by play

    @property
    def hand_over(self) -> bool:
        """Between hands (or after the last one): every card of the last hand may be shown."""
        if self.last_hand is None:
            return False
        # A match that ends other than by play ends mid-hand: that hand never ended.
        return self.phase is Phase.DEAL or (self.phase is Phase.MATCH_OVER and self.ending is None)


def new_match() -> MatchState:
    """The state before anything happened: fold every event of a match onto this."""
    return MatchState()
