"""The tournament's ids of a new match's players, one per seat at every table size."""

from __future__ import annotations

from collections.abc import Sequence

from service.errors import InvalidRequest


def seat_ids(external_player_ids: Sequence[str | None], seats: int) -> list[str | None]:
    """The external player id of each of ``seats`` seats (None: not given), by seat; more ids
    than seats are refused rather than dropped, so a tournament never loses a player silently."""
    if len(external_player_ids) > seats:
        raise InvalidRequest(
            f"a match of {seats} players has {seats} external player ids at most, "
            f"not {len(external_player_ids)}"
        )
    return [*external_player_ids, *[None] * seats][:seats]
