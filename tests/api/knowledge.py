"""Which cards each seat may know at each version of a match of two, three or four seats,
worked out from the full event log (raw JSON from the store), independently of the service's
views and redaction.

Every hand is a two-player hand at a table: a match of two seats is one table whose seats are
the match's, its hand events unwrapped; at three and four seats each table's events come
wrapped in ``table_event``. Each table gets its own ``TableKnowledge``, with table seats as
viewers: a match seat at the table views it as its table seat, anybody else (the seat sitting
out, a partner, the other table) as a spectator. Each table has its own deck, so a card is
judged only against the table it is named for.

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


class TableKnowledge:
    """The hands played at one table, from its events (a two-seat match's: all of them)."""

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


def view_leaks(knowledge: TableKnowledge, viewer: int | None, version: int, view: Json) -> set[str]:
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
    knowledge: TableKnowledge, viewer: int | None, now: int, version: int, event: Json
) -> set[str]:
    """The cards in an event (at ``version``, read at ``now``) that ``viewer`` may not know."""
    if event["type"] == "cards_cut":
        return set()
    hand = knowledge.hand_at(version)
    if hand is None:
        return set(cards_in(event))
    return leaked(event, hand.unknown(viewer, now))


# Parts of a match view that name no card of a hand in play: the cut (its own deck, shown to
# everybody) and the results of hands that are over.
_ENDED = ("cut", "last_round", "last_hands", "last_game")
_MATCH_ENDS = ("match_won", "format_match_won", "match_ended")


class MatchKnowledge:
    """What each seat may know, table by table, in a match of any size."""

    def __init__(self, events: list[tuple[int, Json]]) -> None:
        # A two-seat stream opens with ``match_created``; its every event is the one table's.
        self.one_table = not events or events[0][1]["type"] == "match_created"
        by_table: dict[int, list[tuple[int, Json]]] = {0: []} if self.one_table else {}
        self._seats: dict[int, list[tuple[int, list[int]]]] = {}  # by table: (dealt at, seats)
        self.last_version = events[-1][0] if events else 0
        # ``last_hands`` are the hands of the last round scored, not each table's last hand:
        # a table may finish this round's hand while another still plays.
        self._scored = [version for version, event in events if event["type"] == "round_scored"]
        # Once the match is over, by play or not, its secret is revealed: every deck with it.
        ends = [v for v, event in events if event["type"] in _MATCH_ENDS]
        self._over_at = ends[0] if ends else None
        for version, event in events:
            placed = self.placed(event)
            if placed is None:
                continue
            table, inner, seats = placed
            by_table.setdefault(table, []).append((version, inner))
            if inner["type"] == "dealt":
                self._seats.setdefault(table, []).append((version, seats))
        self.tables = {table: TableKnowledge(events) for table, events in by_table.items()}

    def placed(self, event: Json) -> tuple[int, Json, list[int]] | None:
        """The table an event is about, the hand's event and the table's match seats (None:
        an event of the match at three or four seats, about no table)."""
        if event["type"] == "table_event":
            return event["table"], event["event"], event["seats"]
        return (0, event, [0, 1]) if self.one_table else None

    def viewer(self, table: int, version: int, seat: int | None) -> int | None:
        """``seat``'s table seat in the hand ``table`` plays at ``version`` (None: none)."""
        seats = [s for dealt, s in self._seats.get(table, []) if dealt <= version]
        if seat is None or not seats or seat not in seats[-1]:
            return None
        return seats[-1].index(seat)

    def view_leaks(self, seat: int | None, version: int, body: Json) -> set[str]:
        """The cards in a view (a seat's, or the public table) that ``seat`` may not know."""
        if "tables" not in body:  # one table's view: a two-seat match's
            return view_leaks(self.tables[0], self.viewer(0, version, seat), version, body)
        found: set[str] = set()
        for table in body["tables"]:
            index = table["table"]
            viewer = self.viewer(index, version, seat)
            found |= view_leaks(self.tables[index], viewer, version, table["view"])
        own = body.get("table")
        mine = {"hand": body.get("hand", []), "actions": body.get("legal_actions", [])}
        if own is not None:
            knowledge = self.tables[own]
            hand = knowledge.hand_at(version)
            assert hand is not None
            found |= leaked(mine, hand.unknown(self.viewer(own, version, seat), version))
        else:
            found |= set(cards_in(mine))
        scored = [at for at in self._scored if at <= version]
        for index, last in enumerate(body.get("last_hands") or []):
            finished = self.tables[index].last_finished(scored[-1] if scored else version)
            assert last is None or finished is not None
            if last is not None and finished is not None:
                found |= leaked(last, finished.unknown(None, version))
        rest = {
            key: value
            for key, value in body.items()
            if key not in ("tables", "hand", "legal_actions", *_ENDED)
        }
        return found | set(cards_in(rest))

    def answer_leaks(self, seat: int, version: int, answer: Json) -> set[str]:
        """The cards in an answer to ``seat`` at ``version`` about its own hand (a refusal
        may name what the seat sees, such as the melds it may not lay off onto) that the seat
        may not know; every card, when it plays at no table."""
        for index, table in self.tables.items():
            viewer = self.viewer(index, version, seat)
            hand = table.hand_at(version)
            if viewer is not None and hand is not None:
                return leaked(answer, hand.unknown(viewer, version))
        return set(cards_in(answer))

    def ended_leaks(self, version: int, ends: list[Json]) -> set[str]:
        """The cards in the ends of hands (table events, in order) that a spectator may not
        know at ``version``: each is matched with its table's next finished hand."""
        found: set[str] = set()
        seen: dict[int, int] = {}
        for end in ends:
            table = end.get("table", 0)
            finished = [h for h in self.tables[table].hands if h.over_at(version)]
            index = seen.get(table, 0)
            seen[table] = index + 1
            assert index < len(finished), "a hand's end is shown before it happened"
            found |= leaked(end, finished[index].unknown(None, version))
        return found

    def event_leaks(self, seat: int | None, now: int, version: int, event: Json) -> set[str]:
        """The cards in an event (at ``version``, read at ``now``) that ``seat`` may not know."""
        placed = self.placed(event)
        if placed is None:
            return set() if event["type"] == "seats_cut" else set(cards_in(event))
        table, inner, _ = placed
        viewer = self.viewer(table, version, seat)
        return event_leaks(self.tables[table], viewer, now, version, inner)

    def face_down(self, seat: int | None, now: int, version: int, event: Json) -> bool:
        """Whether the event must hide its card from ``seat`` (read at ``now``): another seat's
        stock draw, or the knock card, while the table's hand goes on."""
        placed = self.placed(event)
        if placed is None:
            return False
        table, inner, _ = placed
        viewer = self.viewer(table, version, seat)
        hand = self.tables[table].hand_at(version)
        if hand is not None and hand.over_at(now):
            return False
        if inner["type"] == "drew":
            return bool(inner["source"] == "stock" and inner["seat"] != viewer)
        return bool(inner["type"] == "knocked" and inner["seat"] != viewer)

    def deals_in_play(self, version: int) -> set[int]:
        """The deals (numbered through the match, at every table, in the order made) whose
        hand was being played at ``version``: their seeds must not be known yet."""
        if self._over_at is not None and self._over_at <= version:
            return set()
        hands = sorted(
            (hand for knowledge in self.tables.values() for hand in knowledge.hands),
            key=lambda hand: hand.dealt_version,
        )
        return {
            deal
            for deal, hand in enumerate(hands, 1)
            if hand.dealt_version <= version and not hand.over_at(version)
        }
