"""``GET /matches/{id}/result``: who won, by how much, game by game, in tournament terms.

Public, like the match summary: everything in it is known to anyone watching the match. One
schema serves every table size (``service.matches.outcome``): per seat (``players``), per side
(``sides``: a seat at two and three seats, a team of partners at four) and per game with its
settlements.
"""

from __future__ import annotations

import msgspec
from litestar import Controller, get

from domain.tables import Settlement
from domain.views import EndingView
from service.matches.outcome import GameOutcome, Outcome
from service.matches.play import MatchPlays
from service.matches.use_cases import MatchService
from service.ports.match_registry import RegisteredMatch
from web.docs import problems
from web.params import Matches, MatchId, Plays
from web.schemas import Status


class PlayerResult(msgspec.Struct, frozen=True, kw_only=True):
    """One seat. ``match_score`` and ``games_won`` are its side's; ``hands_won`` the hands the
    seat itself won, over the whole match."""

    seat: int
    external_player_id: str | None
    match_score: int
    games_won: int
    hands_won: int
    side: int  # the side the seat plays for (its own seat but at four seats: its team)


class SideResult(msgspec.Struct, frozen=True, kw_only=True):
    """What keeps a score: a seat at two and three seats, a team at four (team ``t``: seats
    ``t`` and ``t + 2``). ``hands_won``: the hands its seats won, over the whole match."""

    side: int
    seats: list[int]
    match_score: int
    games_won: int
    hands_won: int


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game; lists are by side. Two sides settle it once at two and four
    seats, and ``totals``, ``scored_by`` and ``points`` are that settlement's; at three seats
    every two players settle apart (``settlements``): ``totals`` is then empty, ``scored_by``
    None and ``points`` what the settlements scored in all."""

    game: int
    winner: int  # a side
    winner_external_player_id: str | None  # the winner's, when the side is one seat
    points: int
    scored_by: int | None
    totals: list[int]
    hand_points: list[int]
    hands_won: list[int]
    winner_seats: list[int]
    settlements: list[Settlement]  # every two sides that settled the game


class MatchResult(msgspec.Struct, frozen=True, kw_only=True):
    """``winner`` is the winning side (a seat at two and three seats, a team at four),
    ``winner_seats`` its seats; ``winner_external_player_id`` is set when that side is one
    seat."""

    match_id: str
    external_ref: str | None
    status: Status
    winner: int | None
    winner_external_player_id: str | None
    players: list[PlayerResult]
    games: list[GameResult]
    hands_played: int
    record: str  # the match's audit record
    winner_seats: list[int]
    sides: list[SideResult]
    ending: EndingView | None = None  # how the match ended, once it has


class ResultController(Controller):
    path = "/matches/{match_id:uuid}/result"
    tags = ("tournament",)

    @get("/", summary="The match's result", responses=problems(400, 404))
    async def result(self, match_id: MatchId, matches: Matches, plays: Plays) -> MatchResult:
        """Winner (side, seats and external player id), each side's and seat's score, each
        game's settlements, hands won, and a link to the match's record, for two, three or
        four seats. While the match goes on: the games finished so far."""
        return await result_of(matches, plays, str(match_id))


async def result_of(matches: MatchService, plays: MatchPlays, match_id: str) -> MatchResult:
    record = await matches.match(match_id)
    return match_result(record, await plays.outcome(record))


def match_result(record: RegisteredMatch, outcome: Outcome) -> MatchResult:
    player_ids = [seat.external_player_id for seat in record.seats]
    side_of = {seat: side for side, seats in enumerate(outcome.sides) for seat in seats}
    hands_won = [outcome.hand_winners.count(seat) for seat in range(len(record.seats))]

    def one_player(side: int | None) -> str | None:
        seats = [] if side is None else outcome.sides[side]
        return player_ids[seats[0]] if len(seats) == 1 else None

    winner = outcome.winner
    return MatchResult(
        match_id=record.match_id,
        external_ref=record.external_ref,
        status=_status(record, outcome),
        winner=winner,
        winner_external_player_id=one_player(winner),
        winner_seats=[] if winner is None else outcome.sides[winner],
        players=[
            PlayerResult(
                seat=seat,
                external_player_id=player_ids[seat],
                match_score=outcome.match_scores[side_of[seat]],
                games_won=outcome.games_won[side_of[seat]],
                hands_won=hands_won[seat],
                side=side_of[seat],
            )
            for seat in range(len(record.seats))
        ],
        sides=[
            SideResult(
                side=side,
                seats=seats,
                match_score=outcome.match_scores[side],
                games_won=outcome.games_won[side],
                hands_won=sum(hands_won[seat] for seat in seats),
            )
            for side, seats in enumerate(outcome.sides)
        ],
        games=[_game(game, outcome.sides, one_player(game.winner)) for game in outcome.games],
        hands_played=len(outcome.hand_winners),
        record=f"/matches/{record.match_id}/record",
        ending=outcome.ending,
    )


def _game(game: GameOutcome, sides: list[list[int]], winner_id: str | None) -> GameResult:
    settlements = game.settlements
    only = settlements[0] if len(settlements) == 1 else None
    return GameResult(
        game=game.game,
        winner=game.winner,
        winner_external_player_id=winner_id,
        winner_seats=sides[game.winner],
        points=only.points if only else sum(s.points for s in settlements),
        scored_by=only.scored_by if only else None,
        totals=only.totals if only else [],
        hand_points=game.hand_points,
        hands_won=game.hands_won,
        settlements=settlements,
    )


def _status(record: RegisteredMatch, outcome: Outcome) -> Status:
    if outcome.over:
        return "finished"  # a no-show ends a match nobody joined
    return "in_progress" if record.full else "waiting_for_opponent"
