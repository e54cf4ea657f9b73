"""The complete state of a match after one of its events, to walk a dispute step by step.

Complete means everything: every hand, the stock in draw order, the face-down knock card, at
every table. So only events of a game record are replayed (the setup and the finished hands,
or rounds); an event of a hand in progress is refused. A two-player match's state is one
hand's (``ReplayState``); a three- or four-player match's holds every table's hand of the
round (``FormatReplayState``), the one hook of the replay that the kind of match chooses.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import (
    Event,
    GameWon,
    HandDrawn,
    HandState,
    MatchState,
    Phase,
    RuleOptions,
    Scored,
    fold,
)
from domain.cards import Mask, cards_of, names
from domain.tables import (
    FormatEvent,
    FormatGameWon,
    FormatPhase,
    RoundScored,
    SeatedHand,
    fold_tables,
)
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


def hand_cards(state: HandState) -> HandCards:
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


class TableReplay(msgspec.Struct, frozen=True, kw_only=True):
    """One table's hand; ``seats`` maps its table seats 0 and 1 to match seats, and every
    other seat number here is a table seat."""

    table: int
    seats: list[int]
    phase: Phase
    turn: int | None
    dealer: int | None
    hands: list[list[str]]
    stock: list[str]  # the cards still in the stock, the next to be drawn first
    discard_pile: list[str]  # face up, top last
    upcard_passes: int
    knock_limit: int
    multiplier: int
    knock: KnockView | None
    last_hand: Scored | HandDrawn | None


class FormatReplayState(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="three_or_four_players"
):
    """Everything about a three- or four-player match right after event ``version``; lists
    by side are by player (three players) or team (four players: seats 0 and 2, 1 and 3)."""

    match_id: str
    version: int
    event: FormatEvent
    players: int
    phase: FormatPhase
    round: int
    game: int
    hand_number: int
    hands_in_match: int
    dealer_side: int | None
    sitting_out: int | None
    tables: list[TableReplay]
    hand_points: list[int]
    hands_won: list[int]
    match_scores: list[int]
    games_won: list[int]
    last_round: RoundScored | None
    last_game: FormatGameWon | None
    winner: int | None
    options: RuleOptions


def tables_replay_state(
    match_id: str, events: Sequence[tuple[int, FormatEvent]], at: int, stream_version: int
) -> FormatReplayState:
    """The state after version ``at``, from a record's events; ``stream_version`` is the
    match's version now (events past the record's end are in the round being played)."""
    index = check_replayable(events, at, stream_version)
    state = fold_tables([event for _, event in events[: index + 1]])
    return FormatReplayState(
        match_id=match_id,
        version=at,
        event=events[index][1],
        players=state.players,
        phase=state.phase,
        round=state.round,
        game=state.game,
        hand_number=state.hand,
        hands_in_match=state.deals,
        dealer_side=state.dealer_side,
        sitting_out=state.sitting_out,
        tables=[_table(index, table) for index, table in enumerate(state.tables)],
        hand_points=list(state.hand_points),
        hands_won=list(state.hands_won),
        match_scores=list(state.match_scores),
        games_won=list(state.games_won),
        last_round=state.last_round,
        last_game=state.last_game,
        winner=state.winner,
        options=state.options,
    )


def _table(index: int, table: SeatedHand) -> TableReplay:
    cards = hand_cards(table.state)
    return TableReplay(
        table=index,
        seats=list(table.seats),
        phase=table.state.phase,
        turn=table.state.turn,
        dealer=table.state.dealer,
        hands=cards.hands,
        stock=cards.stock,
        discard_pile=cards.discard_pile,
        upcard_passes=table.state.upcard_passes,
        knock_limit=table.state.knock_limit,
        multiplier=table.state.multiplier,
        knock=cards.knock,
        last_hand=table.state.last_hand,
    )
