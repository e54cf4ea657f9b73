"""The global feed: the public events of every match, in the order of the store's global log.

A page is ``read_all(after_position=cursor)``, so the feed inherits the log's promise: no gaps,
and an event committed later never appears before one already returned. Each event of a match,
at any table size, is shown as a spectator may see it now, exactly as ``/matches/{id}/events``
without a token shows it: the cards of a hand stay hidden until that hand is over, and the
stock is never shown.

Whether a two-player hand is over is read per match from the latest deal and the latest hand
end (``EventStore.latest_versions``, a few index pages in PostgreSQL): an event is in a
finished hand if a hand end comes at or after it, or a later deal does. A three- or
four-player match stores every hand's event as a ``table_event``, so no index tells its deals
from its draws: a page holding one of its secret-bearing events reads the match's events from
there on and redacts them as its events are redacted for a spectator.

A scope narrows a page to one operator's matches (unless its key may read every match), one
match, and some event types. A page of one match reads that match's streams by their index
(``EventStore.read_streams_in_log``), in the log's order, so its cost does not grow with the
log; any other page scans a page of the whole log. ``next`` is where the read stopped: a
narrowed page may hold fewer entries than ``limit``, or none, while ``next`` moves on, so
following ``next`` still misses nothing. Who created a match, and under which ref, never
changes, so the feed remembers it (``KnownMatches``).
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain import Event, event_type, redact_event
from domain.tables import FormatEvent, TableEvent, redact_tables_events
from service.errors import UnknownFeedPosition
from service.ports.event_store import EventStore, StoredEvent, UnknownPosition
from service.ports.match_registry import MatchRegistry, Owner
from service.store.match_streams import KINDS, TWO_SEATS, kind_of, match_id_of
from service.tournament.known_matches import KnownMatches

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
    data: Event | FormatEvent
    external_ref: str | None = None  # the operator's name for the match, if it gave one
    round_id: str | None = None  # the round it was created in, if any


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


class GlobalFeed:
    def __init__(self, store: EventStore, registry: MatchRegistry) -> None:
        self._store = store
        self.known = KnownMatches(registry)

    async def page(self, *, after: int, limit: int, scope: FeedScope = EVERYTHING) -> FeedPage:
        try:
            if scope.match_id is None:
                records = await self._store.read_all(after_position=after, limit=limit)
            else:  # one match's streams, read by stream: however long the log is
                streams = [kind.stream_id(scope.match_id) for kind in KINDS]
                records = await self._store.read_streams_in_log(
                    streams, after_position=after, limit=limit
                )
        except UnknownPosition:
            raise UnknownFeedPosition(
                f"no event has position {after}: pass 0 or a 'next' from this feed"
            ) from None
        matches = await self._in_scope(records, scope)
        two_seats = [r for r in matches if kind_of(r.stream_id) is TWO_SEATS]
        boundaries = await self._boundaries(
            {r.stream_id for r in two_seats if r.type in SECRET_BEARING}
        )
        public: dict[tuple[str, int], Event | FormatEvent] = {
            (r.stream_id, r.version): redact_event(
                TWO_SEATS.codec.from_record(r), None, _hand_over(boundaries.get(r.stream_id), r)
            )
            for r in two_seats
        }
        public |= await self._public_table_events(
            [r for r in matches if kind_of(r.stream_id) is not TWO_SEATS]
        )
        owners = await self._owners_of({r.stream_id for r in matches})
        return FeedPage(
            entries=[_entry(r, public[r.stream_id, r.version], owners) for r in matches],
            next=records[-1].position if records else after,
        )

    async def _in_scope(self, records: list[StoredEvent], scope: FeedScope) -> list[StoredEvent]:
        picked = [
            r
            for r in records
            if (match_id := match_id_of(r.stream_id)) is not None
            and scope.match_id in (None, match_id)
            and (not scope.types or r.type in scope.types)
        ]
        if scope.operator_id is None or not picked:
            return picked
        owners = await self._owners_of({r.stream_id for r in picked})
        return [r for r in picked if _operator(owners, r.stream_id) == scope.operator_id]

    async def _owners_of(self, stream_ids: set[str]) -> dict[str, Owner]:
        """Who created each match, its external ref and round, by stream id."""
        streams = {m: s for s in stream_ids if (m := match_id_of(s)) is not None}
        owners = await self.known.owners(streams.keys())
        return {streams[m]: owner for m, owner in owners.items()}

    async def _boundaries(self, stream_ids: set[str]) -> dict[str, HandBoundaries]:
        if not stream_ids:
            return {}
        latest = await self._store.latest_versions(stream_ids, (DEAL, *HAND_ENDS))
        return {stream_id: _boundaries(latest.get(stream_id, {})) for stream_id in stream_ids}

    async def _public_table_events(
        self, records: list[StoredEvent]
    ) -> dict[tuple[str, int], Event | FormatEvent]:
        """The events of three- and four-player matches as a spectator sees them now."""
        decoded: dict[tuple[str, int], Event | FormatEvent] = {}
        secret: dict[str, int] = {}  # by stream, the first version that hides a card
        for record in records:
            kind = kind_of(record.stream_id)
            assert kind is not None
            event = decoded[record.stream_id, record.version] = kind.codec.from_record(record)
            if isinstance(event, TableEvent) and event_type(event.event) in SECRET_BEARING:
                secret.setdefault(record.stream_id, record.version)
        for stream, first in secret.items():
            kind = kind_of(stream)
            assert kind is not None
            tail = await self._store.read_stream(stream, after_version=first - 1)
            events = [(r.version, kind.codec.from_record(r)) for r in tail]
            # Later events tell which hands are over: the tail runs up to the present.
            for version, event in redact_tables_events(events, None):
                if (stream, version) in decoded:
                    decoded[stream, version] = event
        return decoded


def _boundaries(latest: dict[str, int]) -> HandBoundaries:
    ends = [latest[end] for end in HAND_ENDS if end in latest]
    return HandBoundaries(latest.get(DEAL), max(ends, default=None))


def _hand_over(boundaries: HandBoundaries | None, record: StoredEvent) -> bool:
    return boundaries is not None and boundaries.hand_over(record.version)


def _operator(owners: dict[str, Owner], stream_id: str) -> str | None:
    owner = owners.get(stream_id)
    return None if owner is None else owner.operator_id


def _entry(record: StoredEvent, data: Event | FormatEvent, owners: dict[str, Owner]) -> FeedEntry:
    match_id = match_id_of(record.stream_id)
    assert match_id is not None
    owner = owners.get(record.stream_id)
    return FeedEntry(
        external_ref=None if owner is None else owner.external_ref,
        round_id=None if owner is None else owner.round_id,
        position=record.position,
        match_id=match_id,
        version=record.version,
        type=record.type,
        recorded_at=record.recorded_at,
        data=data,
    )
