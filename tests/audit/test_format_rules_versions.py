"""``gin verify`` re-decides every round by the rules version its record names: a three-player
hand won for 0 points is a hand won in a match of the current version, and won by nobody in a
record made before versions were recorded (``records/``, kept as the release of that time
made it). Changing the recorded version, every hash recomputed, is a discrepancy."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import msgspec
import pytest

import service.matches.formats
from cli.main import main
from domain import RuleOptions
from tests.audit.format_play import played_format_match
from tests.audit.tampering import Document, data, entries, problem, rehash, set_data, verdict

RECORDS = Path(__file__).parent / "records"
# Made by the release before rules versions, with these options: its first hand is a tied
# knock, an undercut worth 0, and the round after it is dealt again by the same dealer.
UNVERSIONED_RECORD = RECORDS / "three_players_zero_point_undercut_rules_1.json"
ZERO_BONUSES = RuleOptions(undercut_bonus=0, gin_bonus=0, game_target=30, match_target=0)


def zero_point_rounds(doc: Document) -> list[Document]:
    """The round scores that follow a hand scored for 0 points by its winner."""
    found, ended = [], None
    for entry in entries(doc):
        event = data(entry)
        if event["type"] == "table_event" and event["event"]["type"] == "scored":
            ended = event["event"]
        elif event["type"] == "round_scored":
            if ended is not None and ended["winner"] is not None and ended["points"] == 0:
                found.append(event)
            ended = None
    return found


def created(doc: Document) -> Document:
    first = data(entries(doc)[0])
    assert first["type"] == "format_match_created"
    return first


@pytest.fixture(scope="module")
def current_record() -> Document:
    """A three-player match played now, with a hand won for 0 points: the first seed whose
    match has one (the server secret is fixed by the seed too, so the search always ends at
    the same match)."""
    with pytest.MonkeyPatch.context() as patch:
        for seed in range(40):
            secret = hashlib.sha256(f"secret {seed}".encode()).digest()
            patch.setattr(service.matches.formats, "new_secret", lambda secret=secret: secret)
            record = asyncio.run(played_format_match(seed, 3, options=ZERO_BONUSES))
            doc: Document = msgspec.json.decode(msgspec.json.encode(record))
            if zero_point_rounds(doc):
                return doc
    raise AssertionError("no match of 40 had a hand won for 0 points")


@pytest.fixture(scope="module")
def unversioned_record() -> Document:
    doc: Document = msgspec.json.decode(UNVERSIONED_RECORD.read_bytes())
    return doc


def test_a_record_of_the_current_rules_counts_a_hand_won_for_0_points(
    current_record: Document, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert created(current_record)["rules_version"] == 2
    result = verdict(current_record)
    assert result.ok, result.render()
    for scored in zero_point_rounds(current_record):
        assert scored["winner"] is not None
        assert scored["net"] == 0
        assert scored["hands_won"][scored["winner"]] >= 1
        said = f"round {scored['round']} over: 0 to side {scored['winner']};"
        assert any(line.startswith(said) for line in result.lines), said
    path = tmp_path / "current.json"
    path.write_bytes(msgspec.json.encode(current_record))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")


def test_a_record_made_before_rules_versions_verifies_as_it_was_recorded(
    unversioned_record: Document, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "rules_version" not in created(unversioned_record)
    (scored,) = zero_point_rounds(unversioned_record)
    assert (scored["winner"], scored["hands_won"]) == (None, [0, 0, 0])
    result = verdict(unversioned_record)
    assert result.ok, result.render()
    assert "round 1 over: nobody scores; hand points 0-0-0" in result.lines
    assert main(["verify", str(UNVERSIONED_RECORD)]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")


def test_a_changed_rules_version_is_flagged_even_with_the_hashes_recomputed(
    current_record: Document, unversioned_record: Document
) -> None:
    old = msgspec.json.decode(msgspec.json.encode(unversioned_record))
    set_data(entries(old)[0], {**created(old), "rules_version": 2})
    rehash(old)
    # Read by the current rules, the undercut worth 0 (match seat 0, table seat 1) won round 1.
    assert problem(old) == "round 1, version 53: RoundScored says winner null, the rules give 0"

    new = msgspec.json.decode(msgspec.json.encode(current_record))
    unversioned = {key: value for key, value in created(new).items() if key != "rules_version"}
    set_data(entries(new)[0], unversioned)
    rehash(new)
    (first, *_) = zero_point_rounds(new)
    said = problem(new)
    assert f"RoundScored says winner {first['winner']}, the rules give null" in said, said
