"""Outside the domain, nothing tells a match of two seats from one of three or four: what
differs is the match's rules (``domain.match_rules``), asked through named hooks. These tests
read the sources of web/, service/ and cli/ and fail on a branch on a state's type or on a
seat count, and on a state type named outside the modules that must name one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATES = r"(?:TablesState|MatchState|TablesState)"
# A branch on the state's type, or on the number of seats or players.
BRANCHES = (
    re.compile(rf"isinstance\([^()]*,\s*\(?[^()]*\b{STATES}\b"),
    re.compile(rf"type\([^()]*\)\s+is\s+{STATES}\b"),
    re.compile(r"\b(?:players|seats|seat_count)\s*(?:==|!=|<=|>=|<|>)\s*[2-4]\b"),
    re.compile(r"\b[2-4]\s*(?:==|!=)\s*[\w.]*\b(?:players|seats)\b"),
    re.compile(r"\blen\([\w.]*seats\)\s*(?:==|!=|<=|>=|<|>)\s*[2-4]\b"),
    re.compile(r"\b(?:players|seats)\s+in\s+[(\[{]\s*[2-4]"),
)
NAMES_A_STATE = re.compile(rf"\b{STATES}\b")
# The modules that must name a state type: the kinds of match stream (each names the state
# its snapshots hold) and the audit's hooks of each kind of record (the record of a two-player
# match is read hand by hand, a match of tables round by round).
MAY_NAME_A_STATE = {
    "service/store/match_streams.py",
    "service/audit/record_kinds.py",
    "service/audit/replay.py",
    "service/audit/hand_history.py",
    "service/audit/verify_play.py",
    "service/audit/implied_commands.py",
    "service/matches/outcome.py",
}


def _sources() -> list[Path]:
    return sorted(
        path for folder in ("web", "service", "cli") for path in (ROOT / folder).rglob("*.py")
    )


def branches_in(text: str) -> list[str]:
    """The lines of ``text`` that branch on a state's type or a seat count."""
    return [
        line.strip()
        for line in text.splitlines()
        if not line.lstrip().startswith("#") and any(b.search(line) for b in BRANCHES)
    ]


def test_no_module_outside_the_domain_branches_on_the_state_type_or_seat_count() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for path in _sources()
        if (lines := branches_in(path.read_text()))
    }
    assert found == {}


def test_only_the_stream_and_record_kinds_name_a_state_type() -> None:
    naming = {
        str(path.relative_to(ROOT)) for path in _sources() if NAMES_A_STATE.search(path.read_text())
    }
    assert naming <= MAY_NAME_A_STATE, naming - MAY_NAME_A_STATE


@pytest.mark.parametrize(
    "line",
    [
        "if isinstance(state, TablesState):",
        "if isinstance(loaded.state, (MatchState, int)):",
        "elif type(state) is MatchState:",
        "deals_per_round=2 if state.players == 4 else 1,",
        "if seats != 2:",
        "return TWO if 2 == record.seats else OTHER",
        "if len(match.seats) == 2:",
        "if players in (3, 4):",
    ],
)
def test_the_check_finds_each_kind_of_branch(line: str) -> None:
    assert branches_in(f"def f():\n    {line}\n        pass\n") == [line]


@pytest.mark.parametrize(
    "line",
    [
        "# if isinstance(state, TablesState): a comment",
        "return player_ids[seats[0]] if len(seats) == 1 else None",
        "if len(cards) == 3:",
        "rules = rules_for(len(match.seats))",
    ],
)
def test_the_check_leaves_other_lines_alone(line: str) -> None:
    assert branches_in(line) == []
