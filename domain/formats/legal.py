"""``format_legal_actions(state, seat)``: exactly the commands ``decide_format`` accepts from
that seat now: the two-player hand's legal actions at the seat's table, with the match seat.
The system actor (``seat=None``) gets templates whose seed the caller supplies."""

from __future__ import annotations

from domain.formats.commands import CutSeats, DealTable, FormatCommand
from domain.formats.state import FormatPhase, FormatState
from domain.legal import legal_actions_as

# Looked up once: a member looked up on its enum class goes through ``EnumType.__getattr__``,
# which costs as much as the rest of this function (Python 3.11).
_PLAY = FormatPhase.PLAY


def format_legal_actions(state: FormatState, seat: int | None) -> list[FormatCommand]:
    if seat is None:
        if state.phase is FormatPhase.CUT:
            return [CutSeats(seed="")]
        if state.phase is FormatPhase.DEAL:
            return [DealTable(seed="")]
        return []
    if state.phase is not _PLAY:
        return []
    place = state.place_of(seat)
    if place is None:
        return []
    index, table_seat = place
    # Listed with the match seat by the two-player hand itself (it never lists a resignation).
    return legal_actions_as(state.tables[index].state, table_seat, seat)  # type: ignore[return-value]
