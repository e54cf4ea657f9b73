"""``tables_legal_actions(state, seat)``: exactly the commands ``decide_tables`` accepts from
that seat now: the two-player hand's legal actions at the seat's table, with the match seat.
The system actor (``seat=None``) gets templates whose seed the caller supplies."""

from __future__ import annotations

from domain.legal import BY_PHASE
from domain.tables.commands import CutSeats, DealTable, FormatCommand
from domain.tables.state import FormatPhase, TablesState

# Looked up once: a member looked up on its enum class goes through ``EnumType.__getattr__``,
# which costs as much as the rest of this function (Python 3.11).
_PLAY = FormatPhase.PLAY


def tables_legal_actions(state: TablesState, seat: int | None) -> list[FormatCommand]:
    if seat is None:
        if state.phase is FormatPhase.CUT:
            return [CutSeats(seed="")]
        if state.phase is FormatPhase.DEAL:
            return [DealTable(seed="")]
        return []
    if state.phase is not _PLAY:
        return []
    places = state.places
    place = places[seat] if 0 <= seat < len(places) else None
    if place is None:
        return []
    index, table_seat = place
    hand = state.hands[index]
    if table_seat != hand.turn:
        return []
    # Listed with the match seat by the two-player hand itself (``legal_actions_as``, inlined;
    # it never lists a resignation).
    return BY_PHASE[hand.phase](hand, table_seat, seat)  # type: ignore[return-value]
