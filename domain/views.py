"""What each seat, and a spectator, may know: cut out of the state, never added to it.

Never shown to a seat: the opponent's cards (except those it took from the pile, which both
saw), the stock and its order, the face-down knock card (to the defender, before the hand is
over), or any seed. Once a hand is over both hands are shown in its result (``last_hand``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec
from msgspec.structs import asdict, replace

from domain.cards import CARD_NAMES, Mask, cards_of, names
from domain.commands import Command
from domain.events import (
    CardsCut,
    Dealt,
    Drew,
    Event,
    GameWon,
    HandDrawn,
    Knocked,
    MatchEnded,
    Scored,
)
from domain.legal import legal_actions
from domain.options import RuleOptions
from domain.state import HandState, MatchState, Phase


class ScoresView(msgspec.Struct, frozen=True):
    """Indexed by seat; hand points and hands won are this game's."""

    hand_points: list[int]
    hands_won: list[int]
    match_scores: list[int]
    games_won: list[int]


class KnockView(msgspec.Struct, frozen=True):
    """The knocker's cards on the table: ``melds`` as extended by layoffs, ``shown_melds`` as
    laid down; ``knock_card`` is None while the viewer may not see it."""

    knocker: int
    shown_melds: list[list[str]]
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_count: int
    gin: bool
    big_gin: bool
    layoffs: list[tuple[str, int]]
    knock_card: str | None


class ClockView(msgspec.Struct, frozen=True):
    """The turn clock: ``seat`` must act by ``due_at`` (UTC); ``banks_ms`` by seat."""

    seat: int | None
    due_at: datetime | None
    banks_ms: list[int]


class EndingView(msgspec.Struct, frozen=True):
    """How the match ended: ``reason`` is "played_out" or a ``MatchEnded`` reason; ``seat`` is
    who resigned, forfeited or was awarded it; ``note`` an operator's reason."""

    reason: str
    seat: int | None
    winner: int | None
    note: str | None


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """What everybody at the table, spectators included, may know."""

    phase: Phase
    turn: int | None
    dealer: int | None
    game: int
    hand_number: int
    card_counts: list[int]
    took_from_pile: list[list[str]]  # by seat: cards taken from the pile and still held
    discard_pile: list[str]  # face up, top last
    stock_size: int
    knock_limit: int
    multiplier: int
    upcard_passes: int
    scores: ScoresView
    knock: KnockView | None
    cut: CardsCut | None
    last_hand: Scored | HandDrawn | None
    last_game: GameWon | None
    winner: int | None
    options: RuleOptions
    clock: ClockView | None
    ending: EndingView | None


class SeatView(TableView, frozen=True, kw_only=True):
    """The table as one seat sees it, with its own cards and what it may do now."""

    seat: int
    hand: list[str]
    opponent_card_count: int
    opponent_took: list[str]
    legal_actions: list[Command]


def public_view(state: HandState) -> TableView:
    return table_view(state, viewer=None)


def view(state: HandState, seat: int) -> SeatView:
    opponent = 1 - seat
    return SeatView(
        **asdict(table_view(state, viewer=seat)),
        seat=seat,
        hand=names_of(state.hands[seat]),
        opponent_card_count=state.hands[opponent].bit_count(),
        opponent_took=names_of(state.from_pile[opponent]),
        legal_actions=legal_actions(state, seat),
    )


def redact_event(event: Event, seat: int | None, hand_over: bool) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it; ``hand_over`` tells whether the
    hand it belongs to has ended, which reveals the hands but never the stock."""
    if isinstance(event, Dealt):
        hands = [
            cards if hand_over or owner == seat else [] for owner, cards in enumerate(event.hands)
        ]
        return replace(event, hands=hands, stock=[])
    if hand_over:
        return event
    if isinstance(event, Drew) and event.source == "stock" and event.seat != seat:
        return replace(event, card=None)
    if isinstance(event, Knocked) and event.seat != seat:
        return replace(event, card=None)
    return event


def table_view(state: HandState, viewer: int | None) -> TableView:
    """What ``viewer`` (None: a spectator) sees of the table, its own hand and moves aside. A
    table's hand of a larger match has no cut, game or match of its own: the match view's."""
    match = state if isinstance(state, MatchState) else None
    return TableView(
        phase=state.phase,
        turn=state.turn,
        dealer=state.dealer,
        game=state.game,
        hand_number=state.hand,
        card_counts=[hand.bit_count() for hand in state.hands],
        took_from_pile=[names_of(taken) for taken in state.from_pile],
        discard_pile=names(state.pile),
        stock_size=state.stock_left,
        knock_limit=state.knock_limit,
        multiplier=state.multiplier,
        upcard_passes=state.upcard_passes,
        scores=scores_view(state),
        knock=knock_view(state, viewer),
        cut=None if match is None else match.cut,
        last_hand=state.last_hand,
        last_game=None if match is None else match.last_game,
        winner=None if match is None else match.winner,
        options=state.options,
        clock=clock_view(state),
        ending=None if match is None else ending_view(match),
    )


def clock_view(state: HandState) -> ClockView | None:
    clock = state.clock
    if clock is None:
        return None
    return ClockView(clock.seat, clock.due_at, list(clock.banks_ms))


def ending_view(state: MatchState) -> EndingView | None:
    return how_it_ended(state.phase is Phase.MATCH_OVER, state.ending, state.winner)


def how_it_ended(over: bool, ending: MatchEnded | None, winner: int | None) -> EndingView | None:
    """How a match ended (None: it has not), at every table size: played out and won by
    ``winner``, or as its ``match_ended`` says."""
    if not over:
        return None
    if ending is None:
        return EndingView("played_out", None, winner, None)
    return EndingView(ending.reason, ending.seat, ending.winner, ending.note)


def knock_view(
    state: HandState, viewer: int | None, *, everything: bool = False
) -> KnockView | None:
    """The knocker's cards on the table; the face-down card only to the knocker, to everybody
    once the hand is over, or with ``everything`` (a replay of a finished hand)."""
    knock = state.knock
    if knock is None:
        return None
    sees_card = everything or state.hand_over or viewer == knock.knocker
    return KnockView(
        knocker=knock.knocker,
        shown_melds=[names_of(meld) for meld in knock.shown_melds],
        melds=[names_of(meld) for meld in knock.melds],
        deadwood=names_of(knock.deadwood),
        deadwood_count=knock.count,
        gin=knock.gin,
        big_gin=knock.big_gin,
        layoffs=[(CARD_NAMES[card], meld) for card, meld in knock.layoffs],
        knock_card=CARD_NAMES[knock.card] if sees_card and knock.card is not None else None,
    )


def scores_view(state: HandState) -> ScoresView:
    if not isinstance(state, MatchState):
        return ScoresView(list(state.hand_points), list(state.hands_won), [0, 0], [0, 0])
    return ScoresView(
        list(state.hand_points),
        list(state.hands_won),
        list(state.match_scores),
        list(state.games_won),
    )


def names_of(mask: Mask) -> list[str]:
    return names(cards_of(mask))


def redact_events(events: Sequence[tuple[int, Event]], seat: int | None) -> list[tuple[int, Event]]:
    """Each event as ``seat`` may see it, given that these events run up to the present."""
    over = hands_over([event for _, event in events])
    return [
        (version, redact_event(event, seat, done))
        for (version, event), done in zip(events, over, strict=True)
    ]


def hands_over(events: Sequence[Event]) -> list[bool]:
    """By event of one table's run of hands up to the present, whether its hand is over (its
    cards may be shown): a hand is over if the events after it hold its end, and everything
    before a deal belongs to a finished hand."""
    over: list[bool] = []
    hand_over = False
    for event in reversed(events):
        if isinstance(event, Scored | HandDrawn):
            hand_over = True
        over.append(hand_over)
        if isinstance(event, Dealt):
            hand_over = True
    over.reverse()
    return over
