"""Which seats of a new match the server plays, checked before the match exists.

A match needs a person on at least one seat: a bot never waits for anybody, so a match of two
bots would run on the server's time for as long as it lasted, at the request of anyone. An
invited seat is kept for the person who will join it.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.bots.policy import LEVELS
from service.errors import InvalidBotSeats

SEATS = 2


def bot_levels(
    bots: Sequence[str | None], invite_seat: int | None, seats: int = SEATS
) -> list[str | None]:
    """The level of each of ``seats`` seats' bot (None: a person), by seat."""
    if len(bots) > seats:
        raise InvalidBotSeats(f"a match has {seats} seats, not {len(bots)}")
    levels = [*bots, *[None] * seats][:seats]
    for level in levels:
        if level is not None and level not in LEVELS:
            raise InvalidBotSeats(
                f"{level!r} is not a bot level: choose one of {', '.join(LEVELS)}"
            )
    if all(levels):
        raise InvalidBotSeats("a match needs a person on at least one seat")
    if invite_seat is not None and levels[invite_seat] is not None:
        raise InvalidBotSeats(f"seat {invite_seat} is invited: it is kept for a person")
    return levels
