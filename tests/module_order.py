"""The order test modules are handed to pytest-xdist's workers: the longest first.

Under ``--dist loadfile`` a worker takes a whole module at a time, in collection order. Taken
by how many tests they hold (xdist's default), the few long modules of one or two tests came
last and ran alone on one worker while the others sat idle. Longest first, the short ones fill
the gaps at the end. ``module_seconds.json`` holds what each module took in a whole run; a
module it does not know counts as a typical one. Refresh it after a run with
``--durations=0``:

    .venv/bin/pytest -n 2 --dist loadfile --durations=0 -q > /tmp/durations.log
    .venv/bin/python -m tests.module_order /tmp/durations.log > tests/module_seconds.json
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Protocol, TypeVar

SECONDS = Path(__file__).with_name("module_seconds.json")
# A teardown this long is the worker's session ending (its PostgreSQL server, its browser)
# after whichever test came last, not the cost of that test's module.
SESSION_END_SECONDS = 60.0


class Collected(Protocol):
    @property
    def nodeid(self) -> str: ...


ItemT = TypeVar("ItemT", bound=Collected)
DURATION = re.compile(r"\s*([\d.]+)s (setup|call|teardown)\s+([^:\s]+)::")


def longest_first(items: list[ItemT]) -> None:
    """Reorder ``items`` in place, module by module; a module's own order is kept (the sort is
    stable)."""
    seconds = load_seconds()
    typical = statistics.median(seconds.values()) if seconds else 0.0
    first_seen: dict[str, int] = {}
    for index, item in enumerate(items):
        first_seen.setdefault(module_of(item), index)

    def longest(item: ItemT) -> tuple[float, int]:
        module = module_of(item)
        return (-seconds.get(module, typical), first_seen[module])

    items.sort(key=longest)


def load_seconds() -> dict[str, float]:
    return dict(json.loads(SECONDS.read_text())) if SECONDS.exists() else {}


def module_of(item: Collected) -> str:
    return item.nodeid.split("::", 1)[0]


def module_seconds(log: str) -> dict[str, float]:
    totals: defaultdict[str, float] = defaultdict(float)
    for line in log.splitlines():
        found = DURATION.match(line)
        if found is None:
            continue
        seconds, phase, module = float(found[1]), found[2], found[3]
        if phase == "teardown" and seconds > SESSION_END_SECONDS:
            continue
        totals[module] += seconds
    return {module: round(total, 1) for module, total in sorted(totals.items())}


if __name__ == "__main__":
    print(json.dumps(module_seconds(Path(sys.argv[1]).read_text()), indent=1))
