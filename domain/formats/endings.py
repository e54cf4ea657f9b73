"""How a three- or four-player match ends other than by play: a seat resigns, forfeits on
time, or an operator adjudicates (docs/rules.md, "Three and four players"). Either way the
match ends at once, the hands in progress are not scored, and the scores stand as they are.

- Four players: the seat concedes for its team, so the other team wins the match.
- Three players: the other two players' standing decides: the higher match score; if equal,
  the higher hand points in the game in progress; if equal too, the lower seat.
"""

from __future__ import annotations

from domain.commands import Abandon, Adjudicate, Resign
from domain.endings import checked_verdict
from domain.errors import IllegalMove, InvalidCommand, MatchAlreadyEnded
from domain.events import EndReason, MatchEnded
from domain.formats.state import FormatPhase, FormatState, team_of


def resign(state: FormatState, command: Resign) -> MatchEnded:
    _require_running(state, "resign")
    return ended(state, "resigned", command.seat)


def adjudicate(state: FormatState, command: Adjudicate) -> MatchEnded:
    """An operator's verdict: a forfeit ends the match as the seat's resignation would, an
    award gives it to the seat's side, a void to nobody."""
    reason = checked_verdict(command)
    seat = command.seat
    if command.verdict != "void" and (type(seat) is not int or not 0 <= seat < state.players):
        raise InvalidCommand(f"seat must be 0 to {state.players - 1}")
    _require_running(state, "adjudicate")
    if seat is None:
        return ended_by(state, reason, None, None, command.reason)
    if command.verdict == "award":
        return ended_by(state, reason, seat, state.side_of(seat), command.reason)
    return ended_by(state, reason, seat, conceded_to(state, seat), command.reason)


def abandon(state: FormatState, command: Abandon) -> MatchEnded:
    """Nobody moved for too long: the match ends, nobody wins, the scores stand."""
    _require_running(state, "abandon")
    return ended_by(state, "abandoned", None, None)


def ended(state: FormatState, reason: EndReason, seat: int) -> MatchEnded:
    """``seat`` gives the match up for ``reason``; the winner is the side it concedes to."""
    return ended_by(state, reason, seat, conceded_to(state, seat))


def ended_by(
    state: FormatState,
    reason: EndReason,
    seat: int | None,
    winner: int | None,
    note: str | None = None,
) -> MatchEnded:
    return MatchEnded(
        reason=reason,
        seat=seat,
        winner=winner,
        note=note,
        match_scores=list(state.match_scores),
        games_won=list(state.games_won),
    )


def _require_running(state: FormatState, doing: str) -> None:
    if state.phase is FormatPhase.MATCH_OVER:
        raise MatchAlreadyEnded(f"the match is over: you cannot {doing} it any more")
    if state.phase is FormatPhase.START:
        raise IllegalMove(f"you cannot {doing} a match that has not been created")


def conceded_to(state: FormatState, seat: int) -> int:
    """The side that wins the match when ``seat`` gives it up."""
    if state.players == 4:
        return 1 - team_of(seat)

    def standing(other: int) -> tuple[int, int, int]:
        return (state.match_scores[other], state.hand_points[other], -other)

    return max((other for other in state.seats if other != seat), key=standing)
