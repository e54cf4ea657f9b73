"""Domain events to the store's records and back.

A record's type is the event's tag and its data the event's canonical JSON, so the bytes the
store hashes are exactly the bytes the domain encodes. Records of an older schema version go
through the upcasters before decoding.
"""

from __future__ import annotations

from domain import Event, decode_event, encode_event, event_type
from service.ports.event_store import NewEvent, StoredEvent
from service.store.upcasting import Upcasters, canonical_json

UPCASTERS = Upcasters()


def to_record(event: Event) -> NewEvent:
    return NewEvent(event_type(event), type(event).schema_version, encode_event(event))


def from_record(record: StoredEvent) -> Event:
    return decode_stored(record.type, record.schema_version, record.data)


def decode_stored(type: str, schema_version: int, data: bytes) -> Event:
    """An event from its stored type, schema version and data (a record file holds these)."""
    if schema_version >= UPCASTERS.current_version(type):
        return decode_event(data)
    payload = UPCASTERS.decode(type, schema_version, data)
    return decode_event(canonical_json(payload))
