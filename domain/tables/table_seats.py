"""A match seat's move, to go to the two-player hand at its table with its table seat (the hand
lists a seat's actions with the match seat already: ``domain.legal.legal_actions_as``).

The commands a hand lists are few and frozen (a card, a seat), so their translations are made
once and looked up: playing them is much of the cost of a move.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.commands import Command, SeatCommand
from domain.legal import shared_commands

_PLAYERS = 4

# By table seat: a match seat's command -> the same command by the table seat.
_BY_TABLE_SEAT: tuple[dict[Command, Command], ...] = tuple(
    {
        command: own
        for seat in range(_PLAYERS)
        for command, own in zip(shared_commands(seat), shared_commands(table_seat), strict=True)
    }
    for table_seat in (0, 1)
)

# The same, by the identity of the command: the commands a hand lists are these very values,
# and an ``id`` is found without hashing the command's fields. ``_LISTED`` keeps them alive, so
# no other object can take one of their ids.
_LISTED = tuple(shared_commands(seat) for seat in range(_PLAYERS))
BY_IDENTITY: tuple[dict[int, Command], ...] = tuple(
    {id(command): own for command, own in by_command.items()} for by_command in _BY_TABLE_SEAT
)


def as_table_seat(command: SeatCommand, table_seat: int) -> Command:
    """A match seat's ``command``, to go to the two-player hand where it sits at ``table_seat``."""
    own = BY_IDENTITY[table_seat].get(id(command))
    if own is not None:
        return own
    try:
        return _BY_TABLE_SEAT[table_seat][command]
    except (KeyError, TypeError):  # not a shared one (a TypeError: it holds a list of melds)
        changed: Command = replace(command, seat=table_seat)
        return changed
