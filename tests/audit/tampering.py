"""Editing a game record the way someone disputing (or forging) a match would: as JSON, event
by event, optionally recomputing the hash chains so only the rules and the seeds can tell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from service.audit.game_record import GameRecord
from service.audit.verify import Verdict, verify_record
from service.store.hash_chain import GENESIS, link_hash

Document = dict[str, Any]
Entry = dict[str, Any]


def document(record: GameRecord) -> Document:
    return msgspec.json.decode(msgspec.json.encode(record))  # type: ignore[no-any-return]


def verdict(doc: Document) -> Verdict:
    return verify_record(msgspec.json.decode(msgspec.json.encode(doc), type=GameRecord))


def problem(doc: Document) -> str:
    result = verdict(doc)
    assert not result.ok, "the tampered record verified"
    assert result.problem is not None
    return result.problem


def entries(doc: Document, stream: str = "match_stream") -> list[Entry]:
    return doc[stream]["events"]  # type: ignore[no-any-return]


def find(doc: Document, type: str, test: Callable[[Document], bool] = lambda _: True) -> Entry:
    """The first match event of ``type`` whose data passes ``test``."""
    return next(e for e in entries(doc) if e["type"] == type and test(data(e)))


def data(entry: Entry) -> Document:
    return msgspec.json.decode(entry["data"])  # type: ignore[no-any-return]


def kinds(entry: Entry) -> tuple[str, str | None]:
    """An event's type, and a table's event's own."""
    event = data(entry)
    return event["type"], event.get("event", {}).get("type")


def set_data(entry: Entry, value: Document) -> None:
    entry["data"] = msgspec.json.encode(value).decode()


def rehash(doc: Document, stream: str = "match_stream") -> None:
    """Renumber a stream's events 1, 2, .. and recompute its whole hash chain, as a forger
    who knows the hash function would."""
    previous = GENESIS
    for version, entry in enumerate(entries(doc, stream), 1):
        entry["version"] = version
        entry["previous_hash"] = previous.hex()
        previous = link_hash(
            previous,
            doc[stream]["stream_id"],
            version,
            entry["type"],
            entry["schema_version"],
            entry["data"].encode(),
        )
        entry["hash"] = previous.hex()


_DREW = ("drew", None), ("table_event", "drew")


def _first_draw_stamped(events: list[Entry]) -> tuple[int, int]:
    """The index of a clocked record's first draw, and of the first event after its stamps."""
    at = next(index for index, entry in enumerate(events) if kinds(entry) in _DREW)
    after = at + 1
    while "deadline_set" in kinds(events[after]):
        after += 1
    assert after > at + 1, "the draw was not stamped"
    return at, after


def take_out_a_stamp(doc: Document) -> int:
    """The clock's restart after the record's first draw taken out, every hash recomputed (a
    clocked record): the version of the event that now follows the draw."""
    events = entries(doc)
    at, after = _first_draw_stamped(events)
    del events[at + 1 : after]
    rehash(doc)
    return int(events[at]["version"]) + 1


def add_a_stamp(doc: Document, last: bool = False) -> int:
    """The clock's restart after the record's first draw recorded twice, every hash
    recomputed (a clocked record): the copy's version. The first of its stamps is copied, or
    with ``last`` the last (at three and four seats the match's own next deadline)."""
    events = entries(doc)
    at, after = _first_draw_stamped(events)
    events.insert(after, dict(events[after - 1 if last else at + 1]))
    rehash(doc)
    return int(events[after]["version"])
