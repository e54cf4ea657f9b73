"""Commands between match seats and table seats: a seat's listed actions come from the
two-player hand with the table seat and go out with the match seat; a seat's move goes to the
hand with the table seat.

Listed actions are few and frozen (a card, a meld number, a seat), so each is translated once
and then looked up, both ways: listing and playing them are most of the cost of a move.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.commands import Command, SeatCommand

_PLAYERS = 4

# By match seat: a table's listed action -> that action by the match seat.
_BY_MATCH_SEAT: tuple[dict[Command, SeatCommand], ...] = tuple({} for _ in range(_PLAYERS))
# By table seat: an action listed for a match seat -> that action by the table seat.
_BY_TABLE_SEAT: tuple[dict[SeatCommand, Command], ...] = ({}, {})


def as_match_seat(actions: list[Command], table_seat: int, seat: int) -> list[SeatCommand]:
    """``actions`` listed by the two-player hand for ``table_seat``, as match ``seat``'s."""
    known = _BY_MATCH_SEAT[seat]
    try:
        return [known[action] for action in actions]
    except KeyError:
        return [known.get(action) or _learn(action, table_seat, seat) for action in actions]


def as_table_seat(command: SeatCommand, table_seat: int) -> Command:
    """A match seat's ``command``, to go to the two-player hand where it sits at ``table_seat``."""
    try:
        return _BY_TABLE_SEAT[table_seat][command]
    except (KeyError, TypeError):  # not one listed (a TypeError: it holds a list of melds)
        changed: Command = replace(command, seat=table_seat)
        return changed


def _learn(action: Command, table_seat: int, seat: int) -> SeatCommand:
    translated: SeatCommand = replace(action, seat=seat)  # type: ignore[assignment]
    _BY_MATCH_SEAT[seat][action] = translated
    _BY_TABLE_SEAT[table_seat][translated] = action
    return translated
