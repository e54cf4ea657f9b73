"""The offline verifier against records of matches played in this process (the service's own
use cases over the in-memory adapters): a true record verifies, and each way of tampering with
one is named precisely, by version, event, field and card."""

from __future__ import annotations

import copy
import hashlib

import msgspec
import pytest

from domain import RuleOptions
from service.audit.game_record import GameRecord
from service.fairness.seeds import locate
from tests.audit.service_play import played_match
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


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return played_match(seed=7)


@pytest.fixture
def doc(record: GameRecord) -> Document:
    return copy.deepcopy(document(record))


def second_deal(doc: Document) -> Entry:
    return [e for e in entries(doc) if e["type"] == "dealt"][1]


def label(entry: Entry) -> str:
    dealt = data(entry)
    return f"game {dealt['game']} hand {dealt['hand']}"


def test_a_true_record_verifies_and_its_verdict_tells_each_hand_game_and_match(
    record: GameRecord,
) -> None:
    result = verdict(document(record))

    assert result.ok, result.problem
    assert record.status == "finished"
    hands = [line for line in result.lines if " dealt; " in line]
    assert len(hands) == record.hands_finished > 1
    games = [line for line in result.lines if line.startswith("game ") and " won by " in line]
    assert len(games) == sum(e.type == "game_won" for e in record.match_stream.events) > 1
    assert result.lines[-1].startswith("match won by seat ")
    assert result.render().endswith("VERIFIED: every check holds\n")


def test_a_card_swapped_in_a_deal_is_named_by_seat_and_card(doc: Document) -> None:
    entry = second_deal(doc)
    dealt = data(entry)
    held, stocked = dealt["hands"][0][3], dealt["stock"][5]
    dealt["hands"][0][3], dealt["stock"][5] = stocked, held
    set_data(entry, dealt)
    rehash(doc)

    assert problem(doc) == (
        f"{label(entry)}, version {entry['version']}: Dealt does not match the deck from the "
        f"revealed seed: seat 0's hand has {stocked} where the seed gives {held}"
    )


def test_an_edited_event_breaks_the_hash_chain_at_its_version(doc: Document) -> None:
    entry = second_deal(doc)
    dealt = data(entry)
    dealt["upcard"], dealt["stock"][0] = dealt["stock"][0], dealt["upcard"]
    set_data(entry, dealt)

    assert problem(doc) == (
        f"match stream version {entry['version']}: the hash does not match the event's content "
        f"chained to version {entry['version'] - 1} (the event was changed after it was recorded)"
    )


def test_a_changed_drawn_card_is_named(doc: Document) -> None:
    entry = find(doc, "drew", lambda d: d["source"] == "stock")
    drew = data(entry)
    real = drew["card"]
    drew["card"] = "Kh" if real != "Kh" else "Qh"
    set_data(entry, drew)
    rehash(doc)

    assert problem(doc).endswith(
        f'version {entry["version"]}: Drew says card "{drew["card"]}", the rules give "{real}"'
    )


def test_a_changed_score_is_named_with_both_numbers(doc: Document) -> None:
    entry = find(doc, "scored", lambda d: d["winner"] is not None)
    scored = data(entry)
    real = scored["points"]
    scored["points"] = real + 2
    set_data(entry, scored)
    rehash(doc)

    assert problem(doc).endswith(
        f"version {entry['version']}: Scored says {real + 2} points, the rules give {real}"
    )


def test_a_changed_game_bonus_is_named(doc: Document) -> None:
    entry = find(doc, "game_won")
    won = data(entry)
    won["shutout_bonus"] += 100
    set_data(entry, won)
    rehash(doc)

    assert f"version {entry['version']}: GameWon says shutout_bonus " in problem(doc)


def test_a_removed_event_is_named_by_the_missing_version(doc: Document) -> None:
    removed = entries(doc).pop(20)

    version = removed["version"]
    assert problem(doc) == (
        f"match stream: version {version} is missing (the record goes on with version "
        f"{version + 1})"
    )


def test_a_removed_discard_renumbered_and_rehashed_breaks_the_rules(doc: Document) -> None:
    discards = [i for i, e in enumerate(entries(doc)) if e["type"] == "discarded"]
    removed = entries(doc).pop(discards[3])
    rehash(doc)

    assert f"version {removed['version']}: Drew breaks the rules: " in problem(doc)


def test_two_swapped_events_are_named(doc: Document) -> None:
    events = entries(doc)
    events[30], events[31] = events[31], events[30]

    first = events[30]["version"]
    assert problem(doc) == (
        f"match stream: version {first} comes before version {first - 1}: "
        "the events are out of order"
    )


def test_two_events_swapped_and_rehashed_break_the_rules(doc: Document) -> None:
    events = entries(doc)
    index = next(
        i
        for i in range(40, len(events))
        if events[i]["type"] == "drew" and events[i + 1]["type"] == "discarded"
    )
    events[index], events[index + 1] = events[index + 1], events[index]
    rehash(doc)

    assert f"version {index + 1}: Discarded breaks the rules: " in problem(doc)


def test_a_revealed_seed_that_does_not_match_its_commitment_is_named(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if data(e).get("step") == "deal 2")
    revealed = data(entry)
    revealed["seed"] = hashlib.sha256(b"a seed the server never committed to").hexdigest()
    set_data(entry, revealed)
    rehash(doc, "fairness_stream")
    doc["fairness"]["revealed"][2]["seed"] = revealed["seed"]

    assert (
        problem(doc)
        == f"{label(second_deal(doc))}: the revealed seed does not hash to the commitment"
    )


def test_a_replaced_commitment_no_longer_matches_the_cut_seed(doc: Document) -> None:
    entry = entries(doc, "fairness_stream")[0]
    committed = data(entry)
    committed["commitment"] = hashlib.sha256(b"another chain").hexdigest()
    set_data(entry, committed)
    rehash(doc, "fairness_stream")

    assert problem(doc) == "the cut: the revealed seed does not hash to the commitment"


def test_a_server_secret_that_does_not_give_the_commitment_is_named(doc: Document) -> None:
    entry = entries(doc, "fairness_stream")[-1]
    assert entry["type"] == "secret_revealed"
    set_data(entry, {"type": "secret_revealed", "secret": "ab" * 32})
    rehash(doc, "fairness_stream")

    assert problem(doc).endswith(": the revealed server secret does not give chain 1's commitment")


def test_changed_entropy_changes_the_cut(doc: Document) -> None:
    entry = next(e for e in entries(doc, "fairness_stream") if e["type"] == "entropy_fixed")
    set_data(entry, {"type": "entropy_fixed", "entropy": ["alice", "mallory"]})
    rehash(doc, "fairness_stream")

    assert "CardsCut says pairs " in problem(doc)


def test_a_reveal_missing_from_the_fairness_stream_is_named(doc: Document) -> None:
    fairness = entries(doc, "fairness_stream")
    index = next(i for i, e in enumerate(fairness) if data(e).get("step") == "deal 2")
    fairness.pop(index)
    rehash(doc, "fairness_stream")

    assert problem(doc) == (
        f"fairness stream version {index + 1}: the record has the seed of deal 3 where the "
        "seed of deal 2 is due"
    )


def test_the_fairness_summary_must_agree_with_the_fairness_stream(doc: Document) -> None:
    doc["fairness"]["revealed"].pop()

    assert problem(doc) == "the record's fairness summary differs from its stream in revealed"


def test_the_options_must_be_those_the_match_was_created_with(doc: Document) -> None:
    doc["options"]["gin_bonus"] = 50

    assert problem(doc) == "the record's options are not those the match was created with"


def test_a_finished_match_cannot_pass_as_one_in_progress(doc: Document) -> None:
    doc["status"] = "in_progress"

    assert "the record says the match is in_progress, but its events end at version" in (
        problem(doc)
    )


def test_a_match_that_runs_through_several_seed_chains_verifies() -> None:
    record = played_match(seed=11, links=2, options=RuleOptions(game_target=30, match_target=0))
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
        == f"{label(second_deal(doc))}: the revealed seed does not hash to the commitment"
    )


def test_a_record_that_is_not_valid_json_for_its_event_type_is_named(doc: Document) -> None:
    entry = second_deal(doc)
    entry["data"] = msgspec.json.encode({"type": "dealt", "game": 1}).decode()
    rehash(doc)

    assert problem(doc).startswith(
        f"match stream version {entry['version']}: the data is not a valid dealt event: "
    )


def test_a_record_with_an_invited_seat_joining_verifies() -> None:
    record = played_match(seed=11, invite=True)
    types = [e.type for e in record.match_stream.events]

    result = verdict(document(record))

    assert result.ok, result.problem
    assert record.status == "finished"
    # The join is recorded before the cut that waited for it.
    assert types.index("seat_joined") < types.index("cards_cut")
    assert types.count("seat_joined") == 1


def test_a_join_of_a_seat_the_match_lacks_is_named() -> None:
    doc = document(played_match(seed=11, invite=True, moves=4))
    joined = find(doc, "seat_joined")
    set_data(joined, {**data(joined), "seat": 2})
    rehash(doc)

    assert "a join of seat 2" in problem(doc)
