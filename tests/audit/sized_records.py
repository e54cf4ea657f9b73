"""Finished matches of two, three and four seats for the verifier's tests, and a hand's events
read the same way at every size: at three and four seats each is wrapped in the
``table_event`` of the table that played it."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable

import pytest

from service.audit.game_record import GameRecord
from tests.audit.service_play import ONE_GAME, SHORT_MATCH, played_match
from tests.audit.tampering import Document, Entry, data, document, entries
from tests.audit.tampering import set_data as set_entry_data

EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])


@functools.cache
def true_record(seats: int) -> GameRecord:
    """A finished match: at two seats several games, at three and four a game of rounds."""
    return played_match(
        7 if seats == 2 else 10 + seats,
        seats=seats,
        options=(SHORT_MATCH if seats == 2 else ONE_GAME),
    )


def true_document(seats: int) -> Document:
    """``true_record(seats)`` as JSON, a copy a test may change."""
    return copy.deepcopy(document(true_record(seats)))


def hand_event(entry: Entry) -> Document:
    """The hand's event an entry holds, unwrapped from its table's at three and four seats."""
    found = data(entry)
    return found["event"] if found["type"] == "table_event" else found


def set_hand_event(entry: Entry, event: Document) -> None:
    found = data(entry)
    set_entry_data(entry, {**found, "event": event} if found["type"] == "table_event" else event)


def hand_entries(
    doc: Document, kind: str, test: Callable[[Document], bool] = lambda _: True
) -> list[Entry]:
    """The match stream's entries holding a hand's ``kind`` event that passes ``test``."""
    return [
        e
        for e in entries(doc)
        if e["type"] in (kind, "table_event")
        and hand_event(e)["type"] == kind
        and test(hand_event(e))
    ]
