"""``GET /matches/{id}/result``: who won, by how much, game by game, in tournament terms.

Public, like the match summary: everything in it is known to anyone watching the match.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from litestar import Controller, get

from domain import Event, GameWon, HandDrawn, MatchState, Phase, Scored
from domain.views import EndingView, ending_view
from service.matches.use_cases import MatchService
from service.ports.match_registry import RegisteredMatch
from web.docs import problems
from web.params import Matches, MatchId
from web.schemas import Status


class PlayerResult(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    external_player_id: str | None
    match_score: int
    games_won: int
    hands_won: int  # over the whole match


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game: ``totals`` are hand points plus bonuses, and ``points`` (their
    difference) went to ``scored_by`` in the match."""

    game: int
    winner: int
    winner_external_player_id: str | None
    points: int
    scored_by: int | None
    totals: list[int]
    hand_points: list[int]
    hands_won: list[int]


class MatchResult(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    external_ref: str | None
    status: Status
    winner: int | None
    winner_external_player_id: str | None
    players: list[PlayerResult]
    games: list[GameResult]
    hands_played: int
    record: str  # the match's audit record
    ending: EndingView | None = None  # how the match ended, once it has


class ResultController(Controller):
    path = "/matches/{match_id:uuid}/result"
    tags = ("tournament",)

    @get("/", summary="The match's result", responses=problems(400, 404))
    async def result(self, match_id: MatchId, matches: Matches) -> MatchResult:
        """Winner (seat and external player id), each game's score, hands won, and a link to
        the match's record. While the match goes on: the games finished so far."""
        return await result_of(matches, str(match_id))


async def result_of(matches: MatchService, match_id: str) -> MatchResult:
    record = await matches.match(match_id)
    loaded = await matches.load(record)
    events = await matches.events(match_id, None, after_version=0)
    return match_result(record, loaded.state, [event for _, event in events])


def match_result(
    record: RegisteredMatch, state: MatchState, events: Sequence[Event]
) -> MatchResult:
    player_ids = [seat.external_player_id for seat in record.seats]
    hands = [event for event in events if isinstance(event, Scored | HandDrawn)]
    hands_won = [
        sum(1 for hand in hands if isinstance(hand, Scored) and hand.winner == seat)
        for seat in range(len(record.seats))
    ]
    score = state.score
    return MatchResult(
        match_id=record.match_id,
        external_ref=record.external_ref,
        status=_status(record, state),
        winner=state.winner,
        winner_external_player_id=None if state.winner is None else player_ids[state.winner],
        players=[
            PlayerResult(
                seat=seat,
                external_player_id=player_ids[seat],
                match_score=score.match_scores[seat],
                games_won=score.games_won[seat],
                hands_won=hands_won[seat],
            )
            for seat in range(len(record.seats))
        ],
        games=[
            GameResult(
                game=game.game,
                winner=game.winner,
                winner_external_player_id=player_ids[game.winner],
                points=game.points,
                scored_by=game.scored_by,
                totals=game.totals,
                hand_points=game.hand_points,
                hands_won=game.hands_won,
            )
            for game in events
            if isinstance(game, GameWon)
        ],
        hands_played=len(hands),
        record=f"/matches/{record.match_id}/record",
        ending=ending_view(state),
    )


def _status(record: RegisteredMatch, state: MatchState) -> Status:
    if state.phase is Phase.MATCH_OVER:
        return "finished"  # a no-show ends a match nobody joined
    return "in_progress" if record.full else "waiting_for_opponent"
