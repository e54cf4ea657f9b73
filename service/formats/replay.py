"""The complete state of a three- or four-player match after one of its events: every table's
hands, stock, discard pile and face-down knock card, for walking a dispute step by step. As for
two players (``service.audit.replay``), only events of a game record are replayed: the round
being played is refused."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import HandDrawn, Phase, RuleOptions, Scored
from domain.formats import (
    FormatEvent,
    FormatGameWon,
    FormatPhase,
    RoundScored,
    SeatedHand,
    fold_format,
)
from domain.views import KnockView
from service.audit.replay import check_replayable, hand_cards


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


def format_replay_state(
    match_id: str, events: Sequence[tuple[int, FormatEvent]], at: int, stream_version: int
) -> FormatReplayState:
    """The state after version ``at``, from a record's events; ``stream_version`` is the
    match's version now (events past the record's end are in the round being played)."""
    index = check_replayable(events, at, stream_version)
    state = fold_format([event for _, event in events[: index + 1]])
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
