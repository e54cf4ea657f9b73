"""Under mutation testing (``dev.py mutate``) the named rules tests run before the property
tests, and the whole-match property tests last: pytest stops at a mutant's first failure, and
most mutants fail a named test in milliseconds."""

from __future__ import annotations

import os

import pytest


def _cost(item: pytest.Item) -> int:
    if item.get_closest_marker("slow") is not None or "random_matches" in item.name:
        return 2
    return 1 if getattr(getattr(item, "obj", None), "is_hypothesis_test", False) else 0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("HYPOTHESIS_PROFILE") == "mutation":
        items.sort(key=_cost)
