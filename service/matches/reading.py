"""Reading a match: its state now, and its events as a seat may see them."""

from __future__ import annotations

from collections.abc import Sequence

from domain import Dealt, Event, HandDrawn, Scored, redact_event
from domain.state import MatchState
from service.matches.service_base import MatchServiceBase
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded


class ReadingMatches(MatchServiceBase):
    async def load(self, match: str | RegisteredMatch) -> Loaded:
        """A match's state now; given its registry row, the match is known to exist."""
        if isinstance(match, str):
            match = await self.match(match)
        return await self.streams.load(match.match_id)

    async def sync_fairness(self, match: RegisteredMatch, state: MatchState) -> None:
        await self.fairness.sync(match, state)

    async def events(
        self, match_id: str, seat: int | None, *, after_version: int
    ) -> list[tuple[int, Event]]:
        """The events after ``after_version`` as ``seat`` (None: a spectator) may see them now."""
        await self.match(match_id)
        events = await self.streams.read_events(match_id, after_version=max(after_version, 0))
        return redact_events(events, seat)


def redact_events(events: Sequence[tuple[int, Event]], seat: int | None) -> list[tuple[int, Event]]:
    """Each event as ``seat`` may see it, given that these events run up to the present.

    A hand is over, and its cards may be shown, if the events after it hold its end.
    """
    redacted: list[tuple[int, Event]] = []
    hand_over = False
    for version, event in reversed(events):
        if isinstance(event, Scored | HandDrawn):
            hand_over = True
        redacted.append((version, redact_event(event, seat, hand_over)))
        if isinstance(event, Dealt):
            hand_over = True  # everything before a deal belongs to a finished hand
    redacted.reverse()
    return redacted
