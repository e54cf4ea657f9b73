"""``gin verify`` re-decides every round by the rules version its record names: a three-player
hand won for 0 points is a hand won in a match of the current version, and won by nobody in a
record made before versions were recorded (``records/``, kept as the release of that time
made it). Changing the recorded version, every hash recomputed, is a discrepancy."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec
import pytest

from cli.main import main
from domain.tables import decode_tables_event, encode_tables_event
from tests.audit import rules_version_records as records
from tests.audit.rules_version_records import created, with_rules_version, zero_point_rounds
from tests.audit.tampering import Document, entries, problem, verdict


@pytest.fixture(scope="module")
def current_record() -> Document:
    return asyncio.run(records.current_record())


@pytest.fixture(scope="module")
def unversioned_record() -> Document:
    return records.unversioned_record()


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
    # Decoded and encoded again, every stored event gives the bytes its hash covers.
    for entry in entries(unversioned_record):
        stored = entry["data"].encode()
        assert encode_tables_event(decode_tables_event(stored)) == stored
    (scored,) = zero_point_rounds(unversioned_record)
    assert (scored["winner"], scored["hands_won"]) == (None, [0, 0, 0])
    result = verdict(unversioned_record)
    assert result.ok, result.render()
    assert "round 1 over: nobody scores; hand points 0-0-0" in result.lines
    assert main(["verify", str(records.UNVERSIONED_RECORD)]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")


def test_a_changed_rules_version_is_flagged_even_with_the_hashes_recomputed(
    current_record: Document, unversioned_record: Document
) -> None:
    # Read by the current rules, the undercut worth 0 (match seat 0, table seat 1) won round 1.
    assert problem(with_rules_version(unversioned_record, 2)) == (
        "round 1, version 53: RoundScored says winner null, the rules give 0"
    )
    (first, *_) = zero_point_rounds(current_record)
    said = problem(with_rules_version(current_record, None))
    assert f"RoundScored says winner {first['winner']}, the rules give null" in said, said
    said = problem(with_rules_version(current_record, 3))
    assert "rules_version" in said, said
