"""The offline verifier against the fairness side of records of two, three and four seats:
every revealed seed must hash to its chain's commitment and deal what the match stream says,
the record's summaries must agree with its streams, and no record or fairness stream served
while a hand is played gives a seed of a deck still in play."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from domain import RuleOptions
from service.audit.served_record import served_record
from service.audit.verify import verify_record
from service.fairness.seeds import deal_link, locate
from service.matches.use_cases import MatchService
from service.ports.event_store import StoredEvent
from service.ports.match_registry import RegisteredMatch
from tests.audit.service_play import derivable_links, play_match, played_match
from tests.audit.sized_records import EVERY_SIZE, hand_entries, true_document
from tests.audit.tampering import (
    Document,
    Entry,
    data,
    document,
    entries,
    find,
    problem,
    rehash,
    set_data,
    verdict,
)

LONG = RuleOptions(game_target=100, match_target=0)


@pytest.fixture
def doc(seats: int) -> Document:
    return true_document(seats)


def second_deal(doc: Document) -> Entry:
    return hand_entries(doc, "dealt")[1]


def where(doc: Document, entry: Entry) -> str:
    """How the verdict names the hand a deal starts."""
    found = data(entry)
    if found["type"] == "table_event":
        before = entries(doc)[: entries(doc).index(entry)]
        round_ = sum(e["type"] == "round_started" for e in before)
        return f"round {round_} table {found['table']}"
    return f"game {found['game']} hand {found['hand']}"


@EVERY_SIZE
def test_a_revealed_seed_that_does_not_match_its_commitment_is_named(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if data(e).get("step") == "deal 2")
    revealed = data(entry)
    revealed["seed"] = hashlib.sha256(b"a seed the server never committed to").hexdigest()
    set_data(entry, revealed)
    rehash(doc, "fairness_stream")
    doc["fairness"]["revealed"][2]["seed"] = revealed["seed"]

    assert (
        problem(doc)
        == f"{where(doc, second_deal(doc))}: the revealed seed does not hash to the commitment"
    )


@EVERY_SIZE
def test_a_replaced_commitment_no_longer_matches_the_cut_seed(doc: Document) -> None:
    entry = entries(doc, "fairness_stream")[0]
    committed = data(entry)
    committed["commitment"] = hashlib.sha256(b"another chain").hexdigest()
    set_data(entry, committed)
    rehash(doc, "fairness_stream")

    assert problem(doc) == "the cut: the revealed seed does not hash to the commitment"


@EVERY_SIZE
def test_a_server_secret_that_does_not_give_the_commitment_is_named(doc: Document) -> None:
    entry = entries(doc, "fairness_stream")[-1]
    assert entry["type"] == "secret_revealed"
    set_data(entry, {"type": "secret_revealed", "secret": "ab" * 32})
    rehash(doc, "fairness_stream")

    assert problem(doc).endswith(": the revealed server secret does not give chain 1's commitment")


@EVERY_SIZE
def test_changed_entropy_changes_the_cut(seats: int, doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    set_data(entry, {"type": "entropy_fixed", "entropy": ["alice", "mallory", *[""] * (seats - 2)]})
    rehash(doc, "fairness_stream")

    assert ("CardsCut says pairs " if seats == 2 else "SeatsCut says ") in problem(doc)


@EVERY_SIZE
def test_a_reveal_missing_from_the_fairness_stream_is_named(doc: Document) -> None:
    fairness = entries(doc, "fairness_stream")
    index = next(i for i, e in enumerate(fairness) if data(e).get("step") == "deal 2")
    fairness.pop(index)
    rehash(doc, "fairness_stream")

    assert problem(doc) == (
        f"fairness stream version {index + 1}: the record has the seed of deal 3 where the "
        "seed of deal 2 is due"
    )


@EVERY_SIZE
def test_the_fairness_summary_must_agree_with_the_fairness_stream(doc: Document) -> None:
    doc["fairness"]["revealed"].pop()

    assert problem(doc) == "the record's fairness summary differs from its stream in revealed"


@EVERY_SIZE
def test_the_options_must_be_those_the_match_was_created_with(doc: Document) -> None:
    doc["options"]["gin_bonus"] = 50

    assert problem(doc) == "the record's options are not those the match was created with"


@EVERY_SIZE
def test_a_finished_match_cannot_pass_as_one_in_progress(doc: Document) -> None:
    doc["status"] = "in_progress"

    assert "the record says the match is in_progress, but its events end at version" in (
        problem(doc)
    )


@EVERY_SIZE
def test_a_match_that_runs_through_several_seed_chains_verifies(seats: int) -> None:
    record = played_match(
        11, seats=seats, links=2, options=RuleOptions(game_target=30, match_target=0)
    )
    doc = document(record)
    assert verdict(doc).ok
    last_link = record.hands_finished + 1
    assert len(record.fairness.commitments) == locate(last_link, 2)[0] > 1

    entry = next(e for e in entries(doc, "fairness_stream") if data(e).get("chain") == 2)
    committed = data(entry)
    committed["commitment"] = hashlib.sha256(b"a second chain made up later").hexdigest()
    set_data(entry, committed)
    rehash(doc, "fairness_stream")
    assert (
        problem(doc)
        == f"{where(doc, second_deal(doc))}: the revealed seed does not hash to the commitment"
    )


class LeakWatch:
    """After every command: the record served now gives no link of a deal in play."""

    def __init__(self) -> None:
        self.checked = 0
        self.second_table_first = 0  # times the second table's hand ended while the first's went on

    async def __call__(self, matches: MatchService, match: RegisteredMatch, state: object) -> None:
        record, _ = await served_record(matches, match)
        assert verify_record(record).ok
        # Every event written, not only those the record serves.
        written = await matches.streams.store.read_stream(record.match_stream.stream_id)
        in_play_links = {deal_link(deal) for deal in deals_in_play(written)}
        links = record.fairness.chain_links
        shown = [(r.link, r.seed) for r in record.fairness.revealed]
        leaked = in_play_links & derivable_links(shown, links)
        assert not leaked, f"the record gives links {sorted(leaked)} of hands in play"
        # Nor does the fairness stream itself, which runs ahead of the record.
        fairness = await matches.streams.store.read_stream(f"fairness-{match.match_id}")
        leaked = in_play_links & derivable_links(_revealed(fairness), links)
        assert not leaked, f"the fairness stream gives links {sorted(leaked)} of hands in play"
        self.checked += 1
        tables: Sequence[Any] = getattr(state, "tables", ())  # none at two seats
        if len(tables) == 2 and tables[1].over and not tables[0].over:
            self.second_table_first += 1


def deals_in_play(events: Sequence[StoredEvent]) -> set[int]:
    """The deals (numbered from 1 in the match) whose hands have not ended."""
    dealt: dict[object, int] = {}  # by table (None at two seats), its latest deal
    deals = 0
    for event in events:
        found = msgspec.json.decode(event.data)
        inner = found["event"] if found["type"] == "table_event" else found
        table = found.get("table")
        if inner["type"] == "dealt":
            deals += 1
            dealt[table] = deals
        elif inner["type"] in ("scored", "hand_drawn"):
            dealt.pop(table, None)
    return set(dealt.values())


def _revealed(written: Sequence[StoredEvent]) -> list[tuple[int, str]]:
    revealed = [msgspec.json.decode(r.data) for r in written if r.type == "seed_revealed"]
    return [(r["link"], r["seed"]) for r in revealed]


@pytest.mark.slow  # a record built and verified after each of a long match's commands
@EVERY_SIZE
def test_no_record_or_fairness_record_gives_a_deck_in_play(seats: int) -> None:
    watch = LeakWatch()
    # Short chains, so hands cross from one chain to the next; a long game, so many hands.
    record = asyncio.run(play_match(50 + seats, seats=seats, links=3, options=LONG, watch=watch))
    assert record.hands_finished >= 6
    assert len(record.fairness.commitments) > 2
    assert watch.checked > 100
    if seats == 4:
        assert watch.second_table_first > 0  # the case where the two-player rule would leak


def test_a_record_with_an_invited_seat_joining_verifies() -> None:
    record = played_match(seed=11, invite=True)
    types = [e.type for e in record.match_stream.events]

    result = verdict(document(record))

    assert result.ok, result.problem
    assert record.status == "finished"
    # At two seats the join is recorded before the cut that waited for it.
    assert types.index("seat_joined") < types.index("cards_cut")
    assert types.count("seat_joined") == 1


def test_a_join_of_a_seat_the_match_lacks_is_named() -> None:
    doc = document(played_match(seed=11, invite=True, moves=4))
    joined = find(doc, "seat_joined")
    set_data(joined, {**data(joined), "seat": 2})
    rehash(doc)

    assert "a join of seat 2" in problem(doc)
