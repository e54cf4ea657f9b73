"""The global feed: the public events of every match, in the order of the store's global log.

A page is ``read_all(after_position=cursor)``, so the feed inherits the log's promise: no gaps,
and an event committed later never appears before one already returned. Each event is shown as
a spectator may see it now, exactly as ``/matches/{id}/events`` without a token shows it: the
cards of a hand stay hidden until that hand is over, and the stock is never shown.

Whether a hand is over is read per match from the latest deal and the latest hand end
(``EventStore.latest_versions``, a few index pages in PostgreSQL): an event is in a finished
hand if a hand end comes at or after it, or a later deal does.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain import Event, redact_event
from service.errors import UnknownFeedPosition
from service.ports.event_store import EventStore, StoredEvent, UnknownPosition
from service.store.codec import from_record
from service.store.match_streams import MATCH_STREAM_PREFIX

# The only event types whose public form depends on whether their hand is over.
SECRET_BEARING = frozenset({"dealt", "drew", "knocked"})
DEAL = "dealt"
HAND_ENDS = ("scored", "hand_drawn")


class FeedEntry(msgspec.Struct, frozen=True, kw_only=True):
    position: int
    match_id: str
    version: int
    type: str
    recorded_at: datetime
    data: Event


class FeedPage(msgspec.Struct, frozen=True, kw_only=True):
    """``next`` is the cursor for the following page (``after=next``); it moves even when a
    page holds no match events, and stays put when there was nothing new."""

    entries: list[FeedEntry]
    next: int


class HandBoundaries(msgspec.Struct, frozen=True):
    last_deal: int | None
    last_end: int | None

    def hand_over(self, version: int) -> bool:
        return (self.last_end is not None and version <= self.last_end) or (
            self.last_deal is not None and version < self.last_deal
        )


class GlobalFeed:
    def __init__(self, store: EventStore) -> None:
        self._store = store

    async def page(self, *, after: int, limit: int) -> FeedPage:
        try:
            records = await self._store.read_all(after_position=after, limit=limit)
        except UnknownPosition:
            raise UnknownFeedPosition(
                f"no event has position {after}: pass 0 or a 'next' from this feed"
            ) from None
        matches = [r for r in records if r.stream_id.startswith(MATCH_STREAM_PREFIX)]
        boundaries = await self._boundaries(
            {r.stream_id for r in matches if r.type in SECRET_BEARING}
        )
        return FeedPage(
            entries=[_entry(record, boundaries.get(record.stream_id)) for record in matches],
            next=records[-1].position if records else after,
        )

    async def _boundaries(self, stream_ids: set[str]) -> dict[str, HandBoundaries]:
        if not stream_ids:
            return {}
        latest = await self._store.latest_versions(stream_ids, (DEAL, *HAND_ENDS))
        return {stream_id: _boundaries(latest.get(stream_id, {})) for stream_id in stream_ids}


def _boundaries(latest: dict[str, int]) -> HandBoundaries:
    ends = [latest[end] for end in HAND_ENDS if end in latest]
    return HandBoundaries(latest.get(DEAL), max(ends, default=None))


def _entry(record: StoredEvent, boundaries: HandBoundaries | None) -> FeedEntry:
    hand_over = boundaries is not None and boundaries.hand_over(record.version)
    return FeedEntry(
        position=record.position,
        match_id=record.stream_id.removeprefix(MATCH_STREAM_PREFIX),
        version=record.version,
        type=record.type,
        recorded_at=record.recorded_at,
        data=redact_event(from_record(record), None, hand_over),
    )
