"""Bot seats in a Python process: the matches told of with ``seat_bot``."""

from __future__ import annotations


class InMemoryBotSeats:
    def __init__(self) -> None:
        self._levels: dict[tuple[str, int], str] = {}

    def seat_bot(self, match_id: str, seat: int, level: str) -> None:
        self._levels[(match_id, seat)] = level

    async def matches_with_bots(self) -> set[str]:
        return {match_id for match_id, _ in self._levels}
