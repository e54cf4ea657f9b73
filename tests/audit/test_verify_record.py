"""The offline verifier against records of matches of two, three and four seats played in this
process (the service's own use cases over the in-memory adapters): a true record verifies, and
each way of tampering with one is named precisely, by version, event, field and card; at three
and four seats by table too. A hand's events are the same at every size: at three and four
seats each is wrapped in the ``table_event`` of the table that played it."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from service.store.match_streams import kind_for
from tests.audit.sized_records import (
    EVERY_SIZE,
    hand_entries,
    hand_event,
    set_hand_event,
    true_document,
    true_record,
)
from tests.audit.tampering import Document, data, document, entries, problem, rehash, verdict
from tests.audit.tampering import set_data as set_entry_data

# The verdict's line for a hand and for a game, at any size.
HAND_LINE = re.compile(r"^(game \d+ hand \d+: |round \d+ table \d+ \(seats )")
GAME_LINE = re.compile(r"^game \d+ won by (seat|side) ")


@pytest.fixture
def doc(seats: int) -> Document:
    return true_document(seats)


@EVERY_SIZE
def test_a_true_record_verifies_and_its_verdict_tells_each_hand_game_and_match(
    seats: int,
) -> None:
    record = true_record(seats)
    result = verdict(document(record))

    assert result.ok, result.problem
    assert record.status == "finished"
    assert record.match_stream.stream_id == kind_for(seats).stream_id(record.match_id)
    hands = [line for line in result.lines if HAND_LINE.match(line)]
    assert len(hands) == record.hands_finished > 1
    games = [line for line in result.lines if GAME_LINE.match(line)]
    won = sum(e.type.endswith("game_won") for e in record.match_stream.events)
    assert len(games) == won >= (2 if seats == 2 else 1)  # several games in the longer match
    assert result.lines[-1].startswith("match won by seat " if seats == 2 else "match won by side ")
    assert result.render().endswith("VERIFIED: every check holds\n")
    assert len(record.fairness.revealed) == 1 + record.hands_finished  # the cut and every deal
    assert record.fairness.secret is not None


@EVERY_SIZE
def test_a_card_swapped_in_a_deal_is_named_by_seat_and_card(seats: int, doc: Document) -> None:
    entry = hand_entries(doc, "dealt")[-1]  # the last deal: at four seats, either table's
    dealt = hand_event(entry)
    held, stocked = dealt["hands"][0][3], dealt["stock"][5]
    dealt["hands"][0][3], dealt["stock"][5] = stocked, held
    set_hand_event(entry, dealt)
    rehash(doc)

    found = problem(doc)
    assert found.endswith(
        "Dealt does not match the deck from the revealed seed: "
        f"seat 0's hand has {stocked} where the seed gives {held}"
    ), found
    assert f"version {entry['version']}: " in found
    if seats > 2:
        assert f"at table {data(entry)['table']}, Dealt" in found
    else:
        assert found.startswith(f"game {dealt['game']} hand {dealt['hand']}, version ")


@EVERY_SIZE
def test_an_edited_event_breaks_the_hash_chain_at_its_version(doc: Document) -> None:
    entry = hand_entries(doc, "dealt")[1]
    dealt = hand_event(entry)
    dealt["upcard"], dealt["stock"][0] = dealt["stock"][0], dealt["upcard"]
    set_hand_event(entry, dealt)

    assert problem(doc) == (
        f"match stream version {entry['version']}: the hash does not match the event's content "
        f"chained to version {entry['version'] - 1} (the event was changed after it was recorded)"
    )


@EVERY_SIZE
def test_a_changed_drawn_card_is_named(doc: Document) -> None:
    entry = hand_entries(doc, "drew", lambda d: d["source"] == "stock")[0]
    drew = hand_event(entry)
    real = drew["card"]
    drew["card"] = "Kh" if real != "Kh" else "Qh"
    set_hand_event(entry, drew)
    rehash(doc)

    said = f"version {entry['version']}: " + ("at table 0, " if "table" in data(entry) else "")
    assert problem(doc).endswith(f'{said}Drew says card "{drew["card"]}", the rules give "{real}"')


@EVERY_SIZE
def test_a_changed_hand_score_is_named_with_both_numbers(doc: Document) -> None:
    entry = hand_entries(doc, "scored", lambda d: d["winner"] is not None)[0]
    scored = hand_event(entry)
    real = scored["points"]
    scored["points"] = real + 2
    set_hand_event(entry, scored)
    rehash(doc)

    table = data(entry).get("table")
    said = f"version {entry['version']}: " + ("" if table is None else f"at table {table}, ")
    found = problem(doc)
    assert found.endswith(f"{said}Scored says {real + 2} points, the rules give {real}"), found


@pytest.mark.parametrize("seats", [3, 4])
def test_a_changed_round_score_is_flagged_even_with_the_hashes_recomputed(doc: Document) -> None:
    scored = next(
        e for e in entries(doc) if e["type"] == "round_scored" and data(e)["winner"] is not None
    )
    changed = data(scored)
    changed["net"] += 5
    set_entry_data(scored, changed)
    assert "hash does not match" in problem(doc)
    rehash(doc)
    found = problem(doc)
    assert f"version {scored['version']}: RoundScored says net" in found, found


def test_a_changed_game_bonus_is_named() -> None:
    doc = document(true_record(2))
    entry = next(e for e in entries(doc) if e["type"] == "game_won")
    won = data(entry)
    won["shutout_bonus"] += 100
    set_entry_data(entry, won)
    rehash(doc)

    assert f"version {entry['version']}: GameWon says shutout_bonus " in problem(doc)


@EVERY_SIZE
def test_a_removed_event_is_named_by_the_missing_version(doc: Document) -> None:
    removed = entries(doc).pop(20)

    version = removed["version"]
    assert problem(doc) == (
        f"match stream: version {version} is missing (the record goes on with version "
        f"{version + 1})"
    )


@EVERY_SIZE
def test_a_removed_discard_renumbered_and_rehashed_breaks_the_rules(doc: Document) -> None:
    removed = hand_entries(doc, "discarded")[3]
    entries(doc).remove(removed)
    rehash(doc)

    # The next draw at its table comes where the discard was due.
    table = data(removed).get("table")
    drew = next(
        e
        for e in hand_entries(doc, "drew")
        if e["version"] >= removed["version"] and data(e).get("table") == table
    )
    found = problem(doc)
    assert re.search(
        rf"version {drew['version']}: (at table \d, )?Drew breaks the rules: ", found
    ), found


@EVERY_SIZE
def test_two_swapped_events_are_named(doc: Document) -> None:
    events = entries(doc)
    events[30], events[31] = events[31], events[30]

    first = events[30]["version"]
    assert problem(doc) == (
        f"match stream: version {first} comes before version {first - 1}: "
        "the events are out of order"
    )


@EVERY_SIZE
def test_two_events_swapped_and_rehashed_break_the_rules(doc: Document) -> None:
    events = entries(doc)
    kinds = [hand_event(e)["type"] if e["type"] == "table_event" else e["type"] for e in events]
    index = next(
        i
        for i in range(40, len(events))
        if kinds[i : i + 2] == ["drew", "discarded"]
        and data(events[i]).get("table") == data(events[i + 1]).get("table")
    )
    events[index], events[index + 1] = events[index + 1], events[index]
    rehash(doc)

    found = problem(doc)
    assert re.search(
        rf"version {index + 1}: (at table \d, )?Discarded breaks the rules: ", found
    ), found


@EVERY_SIZE
def test_a_record_of_another_table_size_fails_its_stream_id(doc: Document) -> None:
    stream_id = doc["match_stream"]["stream_id"]
    other = "match-" if stream_id.startswith("format-match-") else "format-match-"
    doc["match_stream"]["stream_id"] = f"{other}{doc['match_id']}"

    assert "hash does not match" in problem(doc)


@EVERY_SIZE
def test_a_record_that_is_not_valid_json_for_its_event_type_is_named(doc: Document) -> None:
    entry = entries(doc)[1]
    entry["data"] = msgspec.json.encode({"type": entry["type"], "game": "first"}).decode()
    rehash(doc)

    assert problem(doc).startswith(
        f"match stream version 2: the data is not a valid {entry['type']} event: "
    )


@EVERY_SIZE
def test_gin_verify_checks_a_record_file(
    seats: int, doc: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(msgspec.json.encode(doc))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")
    won = "match_won" if seats == 2 else "format_match_won"
    entry = next(e for e in entries(doc) if e["type"] == won)
    changed = data(entry)
    changed["winner"] = 1 - changed["winner"]
    set_entry_data(entry, changed)
    rehash(doc)
    bad = tmp_path / "bad.json"
    bad.write_bytes(msgspec.json.encode(doc))
    assert main(["verify", str(bad)]) == 1
    assert (
        f"{'MatchWon' if seats == 2 else 'FormatMatchWon'} says winner" in capsys.readouterr().out
    )
