"""Reading a match: its state now, and its events as a seat may see them."""

from __future__ import annotations

from typing import Any

from service.fairness.events import FairnessView
from service.fairness.log import fairness_view
from service.matches.service_base import MatchServiceBase
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded


class ReadingMatches(MatchServiceBase):
    async def load(self, match: str | RegisteredMatch) -> Loaded[Any]:
        """A match's state now; given its registry row, the match is known to exist."""
        if isinstance(match, str):
            match = await self.match(match)
        return await self.streams_for(match).load(match.match_id)

    async def seen_after(self, match: RegisteredMatch, known: int | None) -> Loaded[Any]:
        """The match's state for a reader that has seen version ``known`` (None: no version):
        this process's cached state when it is provably current and at ``known`` or later
        (``MatchStreams.current``), else read as ``load`` does."""
        streams = self.streams_for(match)
        if known is not None and (cached := streams.current(match.match_id, known)) is not None:
            return cached
        return await streams.load(match.match_id)

    async def finished(self, match: RegisteredMatch) -> bool:
        return bool(self.rules_for(match).over((await self.load(match)).state))

    async def sync_fairness(self, match: RegisteredMatch, state: Any) -> None:
        """Write the fairness records due at ``state`` (``service.fairness``)."""
        await self.fairness.sync(match, state)

    def fairness_view(self, match: RegisteredMatch, state: Any) -> FairnessView:
        """The fairness summary at ``state``: what the fairness stream holds once synced."""
        return fairness_view(match, state, self.fairness.links)

    async def events(
        self, match: str | RegisteredMatch, seat: int | None, *, after_version: int
    ) -> list[tuple[int, Any]]:
        """The events after ``after_version`` as ``seat`` (None: a spectator) may see them
        now. Redacting an event needs only what follows it, so only those events are read: a
        live stream reads what is new, not the whole match, at each wake-up."""
        if isinstance(match, str):
            match = await self.match(match)
        streams = self.streams_for(match)
        events = await streams.read_events(match.match_id, after_version=max(after_version, 0))
        return self.rules_for(match).redact(events, seat)
