"""How a three- or four-player match stands when it ends other than by play
(``domain.endings`` decides the endings at every table size, and each format who wins a match
a seat gives up: ``domain.tables.formats``; docs/rules.md, "Three and four players").
"""

from __future__ import annotations

from domain.endings import Standing
from domain.errors import InvalidCommand
from domain.tables.state import FormatPhase, TablesState


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
        conceded_to=lambda seat: state.format.conceded_to(state, seat),
    )
