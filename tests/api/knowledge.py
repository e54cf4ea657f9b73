"""Which cards each seat may know at each version of a match, worked out from the full event
log (raw JSON from the store), independently of the service's views and redaction.

Within a hand a seat knows its own dealt cards, the upcard, every card it drew, every card
discarded or laid off, and the cards the knocker laid down; once the hand is over, both final
hands and the knock card. A spectator knows only what is public. Cards from the cut are a
separate deck, shown to everyone. Everything else (the stock, the opponent's other cards, the
knock card before the hand ends) is unknown, and no response may name it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "cdhs"
ALL_CARDS = frozenset(r + s for r in RANKS for s in SUITS)
CARD = re.compile(r"^[A2-9TJQK][cdhs]$")
CARD_IN_TEXT = re.compile(r"\b[A2-9TJQK][cdhs]\b")
VIEWERS: tuple[int | None, ...] = (0, 1, None)  # None: a spectator

Json = Any


class Hand:
    """One hand's knowledge over time: (version, {viewer: known cards}) after each event."""

    def __init__(self, dealt_version: int) -> None:
        self.dealt_version = dealt_version
        self.end_version: int | None = None
        self._versions: list[int] = []
        self._known: list[dict[int | None, frozenset[str]]] = []

    def record(self, version: int, known: dict[int | None, set[str]]) -> None:
        self._versions.append(version)
        self._known.append({viewer: frozenset(cards) for viewer, cards in known.items()})

    def unknown(self, viewer: int | None, version: int) -> frozenset[str]:
        index = bisect_right(self._versions, version) - 1
        assert index >= 0, f"hand dealt at {self.dealt_version} had not begun at {version}"
        return ALL_CARDS - self._known[index][viewer]

    def over_at(self, version: int) -> bool:
        return self.end_version is not None and self.end_version <= version


class Knowledge:
    def __init__(self, events: list[tuple[int, Json]]) -> None:
        self.hands: list[Hand] = []
        self.last_version = 0
        known: dict[int | None, set[str]] = {}
        for version, event in events:
            self.last_version = version
            kind = event["type"]
            if kind == "dealt":
                self.hands.append(Hand(version))
                upcard = event["upcard"]
                known = {seat: {*event["hands"][seat], upcard} for seat in (0, 1)}
                known[None] = {upcard}
            if not self.hands:
                continue
            public: set[str] = set()
            if kind == "drew":
                known[event["seat"]].add(event["card"])
            elif kind in ("discarded", "laid_off"):
                public.add(event["card"])
            elif kind == "knocked":
                public.update(*event["melds"], event["deadwood"])
                if event["card"] is not None:
                    known[event["seat"]].add(event["card"])
            elif kind in ("scored", "hand_drawn"):
                public.update(*event["hands"])
                if kind == "scored" and event["knock_card"] is not None:
                    public.add(event["knock_card"])
                self.hands[-1].end_version = version
            for viewer in VIEWERS:
                known[viewer] |= public
            self.hands[-1].record(version, known)

    def hand_at(self, version: int) -> Hand | None:
        """The hand an event at ``version`` belongs to (None before the first deal)."""
        current = None
        for hand in self.hands:
            if hand.dealt_version <= version:
                current = hand
        return current

    def last_finished(self, version: int) -> Hand | None:
        finished = [hand for hand in self.hands if hand.over_at(version)]
        return finished[-1] if finished else None


def cards_in(value: Json) -> Iterator[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        if CARD.match(value):
            yield value
        else:
            yield from CARD_IN_TEXT.findall(value)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)


def leaked(value: Json, unknown: Iterable[str]) -> set[str]:
    return set(cards_in(value)) & set(unknown)


def view_leaks(knowledge: Knowledge, viewer: int | None, version: int, view: Json) -> set[str]:
    """The cards in a view (a seat's, or the public table) that ``viewer`` may not know."""
    rest = {key: value for key, value in view.items() if key not in ("cut", "last_hand")}
    current = knowledge.hand_at(version)
    found = leaked(rest, current.unknown(viewer, version)) if current else set(cards_in(rest))
    if view.get("last_hand") is not None:
        finished = knowledge.last_finished(version)
        assert finished is not None, "a view shows a last hand before any hand ended"
        found |= leaked(view["last_hand"], finished.unknown(viewer, version))
    return found


def event_leaks(
    knowledge: Knowledge, viewer: int | None, now: int, version: int, event: Json
) -> set[str]:
    """The cards in an event (at ``version``, read at ``now``) that ``viewer`` may not know."""
    if event["type"] == "cards_cut":
        return set()
    hand = knowledge.hand_at(version)
    if hand is None:
        return set(cards_in(event))
    return leaked(event, hand.unknown(viewer, now))
