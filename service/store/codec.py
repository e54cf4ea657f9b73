"""Domain events to the store's records and back, for matches of every table size.

A record's type is the event's tag and its data the event's canonical JSON, so the bytes the
store hashes are exactly the bytes the domain encodes. Records of an older schema version go
through the upcasters before decoding, in one registry (``UPCASTERS``) for every event type.

A three- or four-player match stores its two-player hands' events wrapped in ``table_event``
(the table and its seats around the two-player event). The wrapper has one shape, so such a
record's schema version is the version of the two-player event inside it, and an upcaster
registered for a two-player event type applies to that event wherever it is stored: alone in
a two-player match's stream or inside a ``table_event``. (Should the wrapper itself change
shape, that would be a new event type, not a new version of this one.)
"""

from __future__ import annotations

from typing import Protocol, TypeVar

import msgspec

from domain import Event, decode_event, encode_event, event_type
from domain.tables import (
    FormatEvent,
    decode_tables_event,
    encode_tables_event,
    unwrapped,
)
from service.ports.event_store import NewEvent, StoredEvent
from service.store.upcasting import Upcasters, canonical_json

UPCASTERS = Upcasters()
TABLE_EVENT = "table_event"

E = TypeVar("E")


class Codec(Protocol[E]):
    """One aggregate's events to records and back (upcasting old records)."""

    def to_record(self, event: E) -> NewEvent: ...

    def from_record(self, record: StoredEvent) -> E: ...


class TwoSeatCodec:
    """The events of a two-player match."""

    def __init__(self, upcasters: Upcasters = UPCASTERS) -> None:
        self.upcasters = upcasters

    def to_record(self, event: Event) -> NewEvent:
        return NewEvent(event_type(event), type(event).schema_version, encode_event(event))

    def from_record(self, record: StoredEvent) -> Event:
        return self.decode(record.type, record.schema_version, record.data)

    def decode(self, type: str, schema_version: int, data: bytes) -> Event:
        if schema_version >= self.upcasters.current_version(type):
            return decode_event(data)
        payload = self.upcasters.decode(type, schema_version, data)
        return decode_event(canonical_json(payload))


class TableCodec:
    """The events of a three- or four-player match, ``table_event`` records included."""

    def __init__(self, upcasters: Upcasters = UPCASTERS) -> None:
        self.upcasters = upcasters

    def to_record(self, event: FormatEvent) -> NewEvent:
        return NewEvent(tag_of(event), schema_version_of(event), encode_tables_event(event))

    def from_record(self, record: StoredEvent) -> FormatEvent:
        return self.decode(record.type, record.schema_version, record.data)

    def decode(self, type: str, schema_version: int, data: bytes) -> FormatEvent:
        if type != TABLE_EVENT:
            if schema_version >= self.upcasters.current_version(type):
                return decode_tables_event(data)
            payload = self.upcasters.decode(type, schema_version, data)
            return decode_tables_event(canonical_json(payload))
        if not self.upcasters.has_steps_from(schema_version):
            return decode_tables_event(data)  # nothing could change: skip parsing twice
        wrapper = msgspec.json.decode(data)
        inner = wrapper.get("event") if isinstance(wrapper, dict) else None
        if not isinstance(inner, dict) or not isinstance(inner.get("type"), str):
            return decode_tables_event(data)  # let the decoder name what is wrong
        wrapper["event"] = self.upcasters.upcast(inner["type"], schema_version, inner)
        return decode_tables_event(canonical_json(wrapper))


def schema_version_of(event: FormatEvent) -> int:
    """The version a three- or four-player match's event is stored under: a two-player event's
    own (a table's event: the one it wraps); the match's own events are at their first."""
    inner = unwrapped(event)
    version = getattr(type(inner), "schema_version", 1)
    assert isinstance(version, int)
    return version


def tag_of(event: msgspec.Struct) -> str:
    """The type tag an event of a match of any table size is stored and sent under."""
    tag = type(event).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


TWO_SEAT_EVENTS = TwoSeatCodec()
TABLE_EVENTS = TableCodec()


def to_record(event: Event) -> NewEvent:
    return TWO_SEAT_EVENTS.to_record(event)


def from_record(record: StoredEvent) -> Event:
    return TWO_SEAT_EVENTS.from_record(record)


def decode_stored(type: str, schema_version: int, data: bytes) -> Event:
    """An event from its stored type, schema version and data (a record file holds these)."""
    return TWO_SEAT_EVENTS.decode(type, schema_version, data)
