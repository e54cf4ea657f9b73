"""How a three- or four-player match ends other than by play: a seat resigns, or forfeits on
time (docs/rules.md, "Three and four players"). Either way the match ends at once, the hands
in progress are not scored, and the scores stand as they are.

- Four players: the seat concedes for its team, so the other team wins the match.
- Three players: the other two players' standing decides: the higher match score; if equal,
  the higher hand points in the game in progress; if equal too, the lower seat.
"""

from __future__ import annotations

from domain.commands import Resign
from domain.errors import IllegalMove, MatchAlreadyEnded
from domain.events import EndReason, MatchEnded
from domain.formats.state import FormatPhase, FormatState, team_of


def resign(state: FormatState, command: Resign) -> MatchEnded:
    if state.phase is FormatPhase.MATCH_OVER:
        raise MatchAlreadyEnded("the match is over: you cannot resign it any more")
    if state.phase is FormatPhase.START:
        raise IllegalMove("you cannot resign a match that has not been created")
    return ended(state, "resigned", command.seat)


def ended(state: FormatState, reason: EndReason, seat: int) -> MatchEnded:
    """``seat`` gives the match up for ``reason``; the winner is the side it concedes to."""
    return MatchEnded(
        reason=reason,
        seat=seat,
        winner=conceded_to(state, seat),
        note=None,
        match_scores=list(state.match_scores),
        games_won=list(state.games_won),
    )


def conceded_to(state: FormatState, seat: int) -> int:
    """The side that wins the match when ``seat`` gives it up."""
    if state.players == 4:
        return 1 - team_of(seat)

    def standing(other: int) -> tuple[int, int, int]:
        return (state.match_scores[other], state.hand_points[other], -other)

    return max((other for other in state.seats if other != seat), key=standing)
