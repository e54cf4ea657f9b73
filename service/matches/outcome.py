"""How a match stands, in the same terms at every table size: who won, the scores of each
side, every hand's winner and every game's settlements.

A side is what keeps a score: a seat at two and three seats, a team of partners at four (team
``t``: seats ``t`` and ``t + 2``). A two-player game settles its two sides once; a
three-player game settles every two players apart; a four-player game settles its two teams.
Each table size reads its own events into these terms here, so a result (``GET
/matches/{id}/result``) is built the same way for every match.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain import GameWon, HandDrawn, MatchState, Phase, Scored
from domain.events import Event
from domain.scoring import Settlement
from domain.tables import FormatEvent, FormatGameWon, FormatPhase, TableEvent, TablesState
from domain.views import EndingView, how_it_ended


class GameOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game; lists are by side."""

    game: int
    winner: int
    hand_points: list[int]
    hands_won: list[int]
    settlements: list[Settlement]


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """``sides``: each side's seats. ``hand_winners``: the match seat that won each hand
    played (in the order they ended, at every table), None for a hand nobody won."""

    sides: list[list[int]]
    over: bool
    winner: int | None  # a side
    match_scores: list[int]
    games_won: list[int]
    hand_winners: list[int | None]
    games: list[GameOutcome]
    ending: EndingView | None


def two_player_outcome(state: MatchState, events: Sequence[Event]) -> Outcome:
    over = state.phase is Phase.MATCH_OVER
    return Outcome(
        sides=[[0], [1]],
        over=over,
        winner=state.winner,
        match_scores=list(state.match_scores),
        games_won=list(state.games_won),
        hand_winners=[
            event.winner if isinstance(event, Scored) else None
            for event in events
            if isinstance(event, Scored | HandDrawn)
        ],
        games=[
            GameOutcome(
                game=game.game,
                winner=game.winner,
                hand_points=game.hand_points,
                hands_won=game.hands_won,
                settlements=[
                    Settlement([0, 1], game.totals, game.shutout_bonus, game.scored_by, game.points)
                ],
            )
            for game in events
            if isinstance(game, GameWon)
        ],
        ending=how_it_ended(over, state.ending, state.winner),
    )


def table_outcome(state: TablesState, events: Sequence[FormatEvent]) -> Outcome:
    """A three- or four-player match: a hand's winner is a table seat, named here by its
    match seat."""
    over = state.phase is FormatPhase.MATCH_OVER
    hand_winners: list[int | None] = []
    for event in events:
        if isinstance(event, TableEvent) and isinstance(event.event, Scored | HandDrawn):
            end = event.event
            winner = end.winner if isinstance(end, Scored) else None
            hand_winners.append(None if winner is None else event.seats[winner])
    return Outcome(
        sides=[[s for s in state.seats if state.side_of(s) == side] for side in range(state.sides)],
        over=over,
        winner=state.winner,
        match_scores=list(state.match_scores),
        games_won=list(state.games_won),
        hand_winners=hand_winners,
        games=[
            GameOutcome(
                game=game.game,
                winner=game.winner,
                hand_points=game.hand_points,
                hands_won=game.hands_won,
                settlements=game.settlements,
            )
            for game in events
            if isinstance(game, FormatGameWon)
        ],
        ending=how_it_ended(over, state.ending, state.winner),
    )
