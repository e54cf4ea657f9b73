"""The longest test modules go to the workers first, each module's tests kept together and in
their own order; the durations come from a run's ``--durations=0`` report."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests import module_order
from tests.module_order import longest_first, module_seconds


@dataclass(frozen=True)
class Item:
    nodeid: str


def test_modules_are_ordered_longest_first_and_unknown_ones_count_as_typical(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seconds = {"tests/a.py": 1.0, "tests/b.py": 30.0, "tests/c.py": 5.0, "tests/d.py": 2.0}
    monkeypatch.setattr(module_order, "load_seconds", lambda: seconds)
    items = [
        Item("tests/a.py::one"),
        Item("tests/a.py::two"),
        Item("tests/new.py::only"),
        Item("tests/b.py::one"),
        Item("tests/c.py::one"),
        Item("tests/b.py::two"),
        Item("tests/d.py::one"),
    ]
    longest_first(items)
    assert [item.nodeid for item in items] == [
        "tests/b.py::one",
        "tests/b.py::two",
        "tests/c.py::one",
        "tests/new.py::only",  # the median of the known ones: 3.5 s
        "tests/d.py::one",
        "tests/a.py::one",
        "tests/a.py::two",
    ]


def test_a_durations_report_gives_each_modules_seconds_without_the_sessions_end() -> None:
    report = "\n".join(
        [
            "============ slowest durations ============",
            "12.50s call     tests/api/test_x.py::test_one[2]",
            "1.25s setup    tests/api/test_x.py::test_one[2]",
            "0.25s teardown tests/api/test_x.py::test_two",
            "140.00s teardown tests/unit/test_y.py::test_last",
            "3.00s call     tests/unit/test_y.py::test_last",
            "(12 durations < 0.005s hidden.)",
        ]
    )
    assert module_seconds(report) == {"tests/api/test_x.py": 14.0, "tests/unit/test_y.py": 3.0}
