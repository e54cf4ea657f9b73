"""``format_legal_actions(state, seat)``: exactly the commands ``decide_format`` accepts from
that seat now: the two-player hand's legal actions at the seat's table, with the match seat.
The system actor (``seat=None``) gets templates whose seed the caller supplies."""

from __future__ import annotations

from msgspec.structs import replace

from domain.commands import Command, Resign
from domain.formats.commands import CutSeats, DealTable, FormatCommand
from domain.formats.state import FormatPhase, FormatState
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
    index = state.table_of(seat)
    if index is None:
        return []
    table = state.tables[index]
    table_seat = table.table_seat(seat)
    assert table_seat is not None
    known = _TRANSLATED.get
    return [
        known((action, seat)) or _as_seat(action, seat)
        for action in legal_actions(table.state, table_seat)
        if type(action) is not Resign
    ]


def _as_seat(action: Command, seat: int) -> FormatCommand:
    # Listed actions are few and frozen (a card, a meld number, a seat), so each is
    # translated once and looked up after that: listing them is most of the cost of a move.
    translated: FormatCommand = replace(action, seat=seat)  # type: ignore[assignment]
    _TRANSLATED[(action, seat)] = translated
    return translated


_TRANSLATED: dict[tuple[Command, int], FormatCommand] = {}
