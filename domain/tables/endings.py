"""How a three- or four-player match stands when it ends other than by play
(``domain.endings`` decides the endings at every table size; docs/rules.md, "Three and four
players"):

- Four players: the seat concedes for its team, so the other team wins the match.
- Three players: the other two players' standing decides: the higher match score; if equal,
  the higher hand points in the game in progress; if equal too, the lower seat.
"""

from __future__ import annotations

from domain.endings import Standing
from domain.errors import InvalidCommand
from domain.tables.state import FormatPhase, TablesState, team_of


def standing(state: TablesState) -> Standing:
    def checked_seat(seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < state.players:
            raise InvalidCommand(f"seat must be 0 to {state.players - 1}")
        return seat

    return Standing(
        started=state.phase is not FormatPhase.START,
        over=state.phase is FormatPhase.MATCH_OVER,
        match_scores=state.match_scores,
        games_won=state.games_won,
        checked_seat=checked_seat,
        side_of=state.side_of,
        conceded_to=lambda seat: conceded_to(state, seat),
    )


def conceded_to(state: TablesState, seat: int) -> int:
    """The side that wins the match when ``seat`` gives it up."""
    if state.players == 4:
        return 1 - team_of(seat)

    def standing(other: int) -> tuple[int, int, int]:
        return (state.match_scores[other], state.hand_points[other], -other)

    return max((other for other in state.seats if other != seat), key=standing)
