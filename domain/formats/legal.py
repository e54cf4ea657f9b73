"""``format_legal_actions(state, seat)``: exactly the commands ``decide_format`` accepts from
that seat now: the two-player hand's legal actions at the seat's table, with the match seat.
The system actor (``seat=None``) gets templates whose seed the caller supplies."""

from __future__ import annotations

from domain.formats.commands import CutSeats, DealTable, FormatCommand
from domain.formats.state import FormatPhase, FormatState
from domain.formats.table_seats import as_match_seat
from domain.legal import legal_actions


def format_legal_actions(state: FormatState, seat: int | None) -> list[FormatCommand]:
    if seat is None:
        if state.phase is FormatPhase.CUT:
            return [CutSeats(seed="")]
        if state.phase is FormatPhase.DEAL:
            return [DealTable(seed="")]
        return []
    if state.phase is not FormatPhase.PLAY:
        return []
    place = state.place_of(seat)
    if place is None:
        return []
    index, table_seat = place
    actions = legal_actions(state.tables[index].state, table_seat)
    if table_seat == seat:
        # The same seat number at the table and in the match: the very same commands (the
        # two-player hand never lists a resignation).
        return actions  # type: ignore[return-value]
    return as_match_seat(actions, table_seat, seat)  # type: ignore[return-value]
