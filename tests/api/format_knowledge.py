"""Which cards each seat of a three- or four-player match may know, worked out from the full
event log (raw JSON from the store), independently of the service's views and redaction.

Each table's hands are two-player hands, so each table gets the two-player ``Knowledge`` of
its own events, with table seats as viewers; a match seat at the table views it as its table
seat, anybody else (the seat sitting out, a partner, the other table) as a spectator. Each
table has its own deck, so a card is judged only against the table it is named for.
"""

from __future__ import annotations

from tests.api.knowledge import Json, Knowledge, cards_in, event_leaks, leaked, view_leaks

# Parts of a match view that name no card of a hand in play: the cut (its own deck, shown to
# everybody) and the results of hands that are over.
_ENDED = ("cut", "last_round", "last_hands", "last_game")


class FormatKnowledge:
    def __init__(self, events: list[tuple[int, Json]]) -> None:
        by_table: dict[int, list[tuple[int, Json]]] = {}
        self._seats: dict[int, list[tuple[int, list[int]]]] = {}  # by table: (dealt at, seats)
        self.last_version = events[-1][0] if events else 0
        # ``last_hands`` are the hands of the last round scored, not each table's last hand:
        # a table may finish this round's hand while another still plays.
        self._scored = [version for version, event in events if event["type"] == "round_scored"]
        for version, event in events:
            if event["type"] != "table_event":
                continue
            table = event["table"]
            by_table.setdefault(table, []).append((version, event["event"]))
            if event["event"]["type"] == "dealt":
                self._seats.setdefault(table, []).append((version, event["seats"]))
        self.tables = {table: Knowledge(events) for table, events in by_table.items()}

    def viewer(self, table: int, version: int, seat: int | None) -> int | None:
        """``seat``'s table seat in the hand ``table`` plays at ``version`` (None: none)."""
        seats = [s for dealt, s in self._seats.get(table, []) if dealt <= version]
        if seat is None or not seats or seat not in seats[-1]:
            return None
        return seats[-1].index(seat)

    def view_leaks(self, seat: int | None, version: int, body: Json) -> set[str]:
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

    def ended_leaks(self, version: int, ends: list[Json]) -> set[str]:
        """The cards in the ends of hands (table events, in order) that a spectator may not
        know at ``version``: each is matched with its table's next finished hand."""
        found: set[str] = set()
        seen: dict[int, int] = {}
        for end in ends:
            table = end["table"]
            finished = [h for h in self.tables[table].hands if h.over_at(version)]
            index = seen.get(table, 0)
            seen[table] = index + 1
            assert index < len(finished), "a hand's end is shown before it happened"
            found |= leaked(end, finished[index].unknown(None, version))
        return found

    def event_leaks(self, seat: int | None, now: int, version: int, event: Json) -> set[str]:
        if event["type"] != "table_event":
            return set() if event["type"] == "seats_cut" else set(cards_in(event))
        table = event["table"]
        viewer = self.viewer(table, version, seat)
        return event_leaks(self.tables[table], viewer, now, version, event["event"])

    def face_down(self, seat: int | None, now: int, version: int, event: Json) -> bool:
        """Whether the event must hide its card from ``seat`` (read at ``now``): another seat's
        stock draw, or the knock card, while the table's hand goes on."""
        if event["type"] != "table_event":
            return False
        inner = event["event"]
        viewer = self.viewer(event["table"], version, seat)
        hand = self.tables[event["table"]].hand_at(version)
        if hand is not None and hand.over_at(now):
            return False
        if inner["type"] == "drew":
            return bool(inner["source"] == "stock" and inner["seat"] != viewer)
        return bool(inner["type"] == "knocked" and inner["seat"] != viewer)

    def deals_in_play(self, version: int) -> set[int]:
        """The deals (numbered through the match, at every table, in the order made) whose
        hand was being played at ``version``: their seeds must not be known yet."""
        hands = sorted(
            (hand for knowledge in self.tables.values() for hand in knowledge.hands),
            key=lambda hand: hand.dealt_version,
        )
        return {
            deal
            for deal, hand in enumerate(hands, 1)
            if hand.dealt_version <= version and not hand.over_at(version)
        }
