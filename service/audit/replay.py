"""The complete state of a match after one of its events, to walk a dispute step by step.

Complete means everything: both hands, the stock in draw order, the face-down knock card. So
only events of a game record are replayed (the setup and the finished hands); an event of the
hand in progress is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import (
    Event,
    GameWon,
    HandDrawn,
    MatchState,
    Phase,
    RuleOptions,
    Scored,
    fold,
)
from domain.cards import Mask, cards_of, names
from domain.views import KnockView, ScoresView, knock_view, scores_view
from service.errors import VersionInPlay, VersionNotFound


class ReplayState(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="two_players"):
    """Everything about the match right after event ``version``; pairs are by seat. ``kind``
    tells it from a three- or four-player match's state in the one answer of both."""

    match_id: str
    version: int
    event: Event
    phase: Phase
    turn: int | None
    dealer: int | None
    game: int
    hand_number: int
    hand_in_match: int
    hands: list[list[str]]
    stock: list[str]  # the cards still in the stock, the next to be drawn first
    discard_pile: list[str]  # face up, top last
    upcard_passes: int
    knock_limit: int
    multiplier: int
    knock: KnockView | None
    scores: ScoresView
    last_hand: Scored | HandDrawn | None
    last_game: GameWon | None
    winner: int | None
    options: RuleOptions


def replay_state(
    match_id: str, events: Sequence[tuple[int, Event]], at: int, stream_version: int
) -> ReplayState:
    """The state after version ``at``, from a record's events; ``stream_version`` is the match's
    version now (events past the record's end are in the hand being played)."""
    index = check_replayable(events, at, stream_version)
    state = fold(event for _, event in events[: index + 1])
    return _state(match_id, at, events[index][1], state)


def check_replayable(events: Sequence[tuple[int, object]], at: int, stream_version: int) -> int:
    """The index of version ``at`` among a record's events (of any format), or why it cannot
    be replayed."""
    last = events[-1][0] if events else 0
    if at > last:
        if at <= stream_version:
            raise VersionInPlay(
                f"version {at} is in the hand being played; replay reaches version {last}, "
                "the end of the last finished hand"
            )
        raise VersionNotFound(f"the match has {stream_version} events; there is no version {at}")
    index = next((i for i, (version, _) in enumerate(events) if version == at), None)
    if index is None:
        raise VersionNotFound(f"there is no version {at}")
    return index


class HandCards(msgspec.Struct, frozen=True):
    """A hand's cards, all of them, face-down ones included."""

    hands: list[list[str]]
    stock: list[str]
    discard_pile: list[str]
    knock: KnockView | None


def hand_cards(state: MatchState) -> HandCards:
    return HandCards(
        hands=[_names(hand) for hand in state.hands],
        stock=names(state.stock[state.stock_next :]),
        discard_pile=names(state.pile),
        knock=knock_view(state, None, everything=True),
    )


def _state(match_id: str, version: int, event: Event, state: MatchState) -> ReplayState:
    cards = hand_cards(state)
    return ReplayState(
        match_id=match_id,
        version=version,
        event=event,
        phase=state.phase,
        turn=state.turn,
        dealer=state.dealer,
        game=state.game,
        hand_number=state.hand,
        hand_in_match=state.deals,
        hands=cards.hands,
        stock=cards.stock,
        discard_pile=cards.discard_pile,
        upcard_passes=state.upcard_passes,
        knock_limit=state.knock_limit,
        multiplier=state.multiplier,
        knock=cards.knock,
        scores=scores_view(state),
        last_hand=state.last_hand,
        last_game=state.last_game,
        winner=state.winner,
        options=state.options,
    )


def _names(mask: Mask) -> list[str]:
    return names(cards_of(mask))
