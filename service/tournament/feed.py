"""The global feed: the public events of every match, in the order of the store's global log.

A page is ``read_all(after_position=cursor)``, so the feed inherits the log's promise: no gaps,
and an event committed later never appears before one already returned. Each event is shown as
a spectator may see it now, exactly as ``/matches/{id}/events`` without a token shows it: the
cards of a hand stay hidden until that hand is over, and the stock is never shown.

Whether a hand is over is read per match from the latest deal and the latest hand end
(``EventStore.latest_versions``, a few index pages in PostgreSQL): an event is in a finished
hand if a hand end comes at or after it, or a later deal does.

A scope narrows a page to one operator's matches (unless its key may read every match), one
match, and some event types. The scan is the same page of the log either way, and ``next`` is
where the scan stopped: a narrowed page may hold fewer entries than ``limit``, or none, while
``next`` moves on, so following ``next`` still misses nothing. Who created a match never
changes, so the feed remembers it.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime

import msgspec

from domain import Event, redact_event
from service.errors import UnknownFeedPosition
from service.ports.event_store import EventStore, StoredEvent, UnknownPosition
from service.ports.match_registry import MatchRegistry
from service.store.codec import from_record
from service.store.match_streams import MATCH_STREAM_PREFIX, stream_id

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


class FeedScope(msgspec.Struct, frozen=True, kw_only=True):
    """What a page may show: ``operator_id`` None means every match (the ``feed:all`` scope)."""

    operator_id: str | None
    match_id: str | None = None
    types: frozenset[str] = frozenset()  # empty: every type


EVERYTHING = FeedScope(operator_id=None)
OWNERS_KEPT = 100_000


class GlobalFeed:
    def __init__(self, store: EventStore, registry: MatchRegistry) -> None:
        self._store = store
        self._registry = registry
        self._owners: OrderedDict[str, str | None] = OrderedDict()  # stream id -> operator

    async def page(self, *, after: int, limit: int, scope: FeedScope = EVERYTHING) -> FeedPage:
        try:
            records = await self._store.read_all(after_position=after, limit=limit)
        except UnknownPosition:
            raise UnknownFeedPosition(
                f"no event has position {after}: pass 0 or a 'next' from this feed"
            ) from None
        matches = await self._in_scope(records, scope)
        boundaries = await self._boundaries(
            {r.stream_id for r in matches if r.type in SECRET_BEARING}
        )
        return FeedPage(
            entries=[_entry(record, boundaries.get(record.stream_id)) for record in matches],
            next=records[-1].position if records else after,
        )

    async def _in_scope(self, records: list[StoredEvent], scope: FeedScope) -> list[StoredEvent]:
        wanted = None if scope.match_id is None else stream_id(scope.match_id)
        picked = [
            r
            for r in records
            if r.stream_id.startswith(MATCH_STREAM_PREFIX)
            and wanted in (None, r.stream_id)
            and (not scope.types or r.type in scope.types)
        ]
        if scope.operator_id is None or not picked:
            return picked
        owners = await self._owners_of({r.stream_id for r in picked})
        return [r for r in picked if owners.get(r.stream_id) == scope.operator_id]

    async def _owners_of(self, stream_ids: set[str]) -> dict[str, str | None]:
        unknown = [s.removeprefix(MATCH_STREAM_PREFIX) for s in stream_ids - self._owners.keys()]
        if unknown:
            found = await self._registry.owners(unknown)
            for match_id, owner in found.items():
                self._owners[stream_id(match_id)] = owner.operator_id
            while len(self._owners) > OWNERS_KEPT:
                self._owners.popitem(last=False)
        return {s: self._owners.get(s) for s in stream_ids}

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
