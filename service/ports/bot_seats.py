"""The bot seats port: which matches have a seat the server plays.

The bot sweep reads it to find matches that may be waiting on a bot; whether one is finished
comes from its event stream, not from here.
"""

from __future__ import annotations

from typing import Protocol


class BotSeats(Protocol):
    async def matches_with_bots(self) -> set[str]:
        """The id of every match with at least one bot seat, finished or not."""
        ...
