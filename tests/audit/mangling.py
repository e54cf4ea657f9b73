"""Mangling a game record at random, as JSON, the way a broken tool, a bad disk or a forger
might: events deleted, duplicated, swapped or truncated away, a value replaced by one of another
type or out of range, an event's type changed, a table's event given another's, an entry's
version, schema version or hash changed, a field of the record itself changed, the text cut
short; a forger's hash chains recomputed after some of them.

``content`` is what a verifier can hold a record to: two records with the same content are the
same match, told the same way, and one whose content differs from a true record's must fail.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import struct
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from domain.errors import DomainError
from domain.tables import TableEvent, decode_tables_event
from service.audit.game_record import decode_record
from service.fairness.events import decode_fairness
from service.store.codec import decode_stored
from tests.audit.service_play import ONE_GAME, TIMED_OUT, TIMED_PLAY, played_match
from tests.audit.tampering import Document, document, rehash

STREAMS = ("match_stream", "fairness_stream")

# Values of every JSON type, and numbers out of every range a seat, a table or a count has.
VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    4,
    5,
    9,
    52,
    2**31,
    2**63,
    -(2**63),
    10**30,
    0.5,
    "",
    "x",
    "As",
    "stock",
    "dealt",
    "table_event",
    "ab" * 32,
    [],
    [0],
    [-1, 7],
    ["As"],
    [[]],
    [[0, 1]],
    {},
    {"type": "dealt"},
    {"type": "scored", "seat": 9},
]
OUT_OF_RANGE = [-1, -2, 2, 3, 4, 5, 9, 2**31, 10**30, -(10**30)]
NUMBERED = {
    *("seat", "table", "dealer", "winner", "sitting_out", "players"),
    *("round", "game", "hand", "net", "points", "chain", "link", "links"),
}
NUMBERED_LISTS = {"seats", "hand_points", "match_scores", "points", "totals", "tables"}


def true_records() -> dict[int, Document]:
    """A finished match's record at each table size, as JSON."""
    return {
        2: document(played_match(3)),
        3: document(played_match(13, seats=3, options=ONE_GAME)),
        4: document(played_match(14, seats=4, options=ONE_GAME)),
    }


def clocked_records() -> dict[int, Document]:
    """A finished match's record on a turn clock, with timeouts, at each table size."""
    return {
        seats: document(played_match(seats, seats=seats, options=TIMED_PLAY, timeouts=TIMED_OUT))
        for seats in (2, 3, 4)
    }


def mangled(doc: Document, rng: random.Random) -> str:
    """The record's JSON text, mangled one to three times (``doc`` is left as it was)."""
    changed = copy.deepcopy(doc)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        stream = "fairness_stream" if rng.random() < 0.2 else "match_stream"
        rng.choice(_MANGLERS)(changed, stream, rng)
        if rng.random() < 0.7:  # a forger recomputes the chain; a broken tool does not
            _rehash(changed, stream)
    text = json.dumps(changed)
    if rng.random() < 0.05:
        return text[: rng.randrange(len(text))]
    return text


def content(text: str) -> object:
    """What a verifier holds a record to, or None if ``text`` is no record at all: the record's
    own checked fields and every event decoded, without its hashes (``chains``). Two tables
    play at once, so between two events of the match as a whole (a round's start, its score)
    only each table's own order counts: the record of one order of the tables' moves is as
    true as the record of another."""
    try:
        record = decode_record(text)
        formats = record.match_stream.stream_id.startswith("format-")
        streams = [
            (
                stream.stream_id,
                [event.version for event in stream.events],
                _by_table(
                    [(event.type, event.schema_version, decode(event)) for event in stream.events]
                ),
            )
            for stream, decode in (
                (record.match_stream, _format_event if formats else _two_player_event),
                (record.fairness_stream, _fairness_event),
            )
        ]
    except (msgspec.DecodeError, LookupError, DomainError):
        return None
    checked = (record.format, record.format_version, record.match_id, record.status)
    return (checked, record.options, record.fairness, streams)


def _by_table(events: list[tuple[str, int, object]]) -> list[object]:
    """The events, each run of tables' events as each table's events in order."""
    grouped: list[object] = []
    tables: dict[int, list[object]] = {}
    for event in events:
        decoded = event[2]
        if isinstance(decoded, TableEvent):
            tables.setdefault(decoded.table, []).append(event)
            continue
        grouped.extend([sorted(tables.items(), key=lambda item: item[0]), event])
        tables = {}
    grouped.append(sorted(tables.items(), key=lambda item: item[0]))
    return grouped


def chains(text: str) -> object:
    """Every hash of a record's two streams, or None if ``text`` is no record."""
    try:
        record = decode_record(text)
    except msgspec.DecodeError:
        return None
    return [
        [(event.hash, event.previous_hash) for event in stream.events]
        for stream in (record.match_stream, record.fairness_stream)
    ]


def _two_player_event(entry: Any) -> object:
    return decode_stored(entry.type, entry.schema_version, entry.data.encode())


def _format_event(entry: Any) -> object:
    return decode_tables_event(entry.data)


def _fairness_event(entry: Any) -> object:
    return decode_fairness(entry.data)


def _events(doc: Document, stream: str) -> list[Document]:
    events = doc.get(stream, {}).get("events") if isinstance(doc.get(stream), dict) else None
    return events if isinstance(events, list) else []


def _rehash(doc: Document, stream: str) -> None:
    # A stream mangled past hashing stays as it is.
    with contextlib.suppress(KeyError, TypeError, AttributeError, ValueError, struct.error):
        rehash(doc, stream)


def _delete(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if events:
        del events[rng.randrange(len(events))]


def _duplicate(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if events:
        copied = copy.deepcopy(rng.choice(events))
        events.insert(rng.randrange(len(events) + 1), copied)


def _swap(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if len(events) > 1:
        first, second = rng.sample(range(len(events)), 2)
        events[first], events[second] = events[second], events[first]


def _move(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if len(events) > 1:
        events.insert(rng.randrange(len(events)), events.pop(rng.randrange(len(events))))


def _truncate(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if events:
        del events[rng.randrange(len(events)) :]


def _edit_data(doc: Document, stream: str, rng: random.Random, edit: Callable[[Any], Any]) -> None:
    events = _events(doc, stream)
    if not events:
        return
    entry = rng.choice(events)
    try:
        data = json.loads(entry["data"])
    except (KeyError, TypeError, ValueError):
        return
    entry["data"] = json.dumps(edit(data), separators=(",", ":"))


def _any_value(doc: Document, stream: str, rng: random.Random) -> None:
    def edit(data: Any) -> Any:
        paths = [path for path, _ in _walk(data) if path]
        if not paths:
            return data
        others = [value for _, value in _walk(data)]
        return _set(data, rng.choice(paths), copy.deepcopy(rng.choice(VALUES + others[:40])))

    _edit_data(doc, stream, rng, edit)


def _out_of_range(doc: Document, stream: str, rng: random.Random) -> None:
    def edit(data: Any) -> Any:
        paths = [
            path
            for path, _ in _walk(data)
            if path and (path[-1] in NUMBERED or (len(path) > 1 and path[-2] in NUMBERED_LISTS))
        ]
        return _set(data, rng.choice(paths), rng.choice(OUT_OF_RANGE)) if paths else data

    _edit_data(doc, stream, rng, edit)


def _event_type(doc: Document, stream: str, rng: random.Random) -> None:
    """An event's data given another event's type (and the entry's type too, or not)."""
    events = _events(doc, stream)
    if not events:
        return
    other = rng.choice(events)
    try:
        kind = json.loads(other["data"])["type"]
    except (KeyError, TypeError, ValueError):
        return
    renamed = rng.random() < 0.5

    def edit(data: Any) -> Any:
        if isinstance(data, dict):
            data["type"] = kind
        return data

    _edit_data(doc, stream, rng, edit)
    if renamed:
        rng.choice(events)["type"] = kind


def _inner_event(doc: Document, stream: str, rng: random.Random) -> None:
    """A table's event wrapping the event of another table's event."""
    wrapped = []
    for entry in _events(doc, "match_stream"):
        try:
            data = json.loads(entry["data"])
        except (KeyError, TypeError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("event"), dict):
            wrapped.append(data["event"])
    if not wrapped:
        return _any_value(doc, stream, rng)

    def edit(data: Any) -> Any:
        if isinstance(data, dict) and "event" in data:
            data["event"] = copy.deepcopy(rng.choice(wrapped))
        return data

    return _edit_data(doc, "match_stream", rng, edit)


def _entry_field(doc: Document, stream: str, rng: random.Random) -> None:
    events = _events(doc, stream)
    if events:
        entry = rng.choice(events)
        field = rng.choice(["version", "type", "schema_version", "hash", "previous_hash", "data"])
        entry[field] = copy.deepcopy(rng.choice(VALUES + OUT_OF_RANGE))


def _record_field(doc: Document, stream: str, rng: random.Random) -> None:
    paths = [path for path, _ in _walk(doc) if path and path[0] not in STREAMS]
    _set(doc, rng.choice(paths), copy.deepcopy(rng.choice(VALUES)))


_MANGLERS: list[Callable[[Document, str, random.Random], None]] = [
    _delete,
    _duplicate,
    _swap,
    _move,
    _truncate,
    _any_value,
    _any_value,
    _out_of_range,
    _out_of_range,
    _event_type,
    _inner_event,
    _entry_field,
    _record_field,
]


def _walk(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, (*path, index))


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    at = root
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = value
    return root
