"""The random player every HTTP client here uses: one of the legal actions a seat's view lists.

How much it leans towards ending hands is a parameter, because the callers want different
things on purpose: a benchmark plays uniformly at random (so its numbers stay comparable with
earlier runs), the load test leans towards going out so that a short match ends in a few
hundred commands, and the API tests lean harder still so that a match ends in a few dozen.

It lives in ``bench/`` rather than in ``tests/`` because the load test and the benchmarks need
it and must not import the test suite; the tests import it from here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from domain import deadwood

Json = dict[str, Any]


@dataclass(frozen=True)
class Lean:
    """Chances, from 0 to 1, of each shortcut towards the end of a hand."""

    going_out: float = 0.0  # a knock or big gin, whenever one is listed
    least_deadwood: float = 0.0  # otherwise, the discard that keeps the least deadwood


UNIFORM = Lean()  # every legal action equally likely
LOAD_TEST = Lean(going_out=0.8, least_deadwood=0.6)
QUICK = Lean(going_out=0.8, least_deadwood=0.9)


def choose(view: Json, rng: random.Random, lean: Lean = UNIFORM) -> Json:
    """One of the view's legal actions, ready to send."""
    actions: list[Json] = view["legal_actions"]
    going_out = [a for a in actions if a["type"] in ("knock", "big_gin")]
    if going_out and _chance(rng, lean.going_out):
        return rng.choice(going_out)
    discards = [a for a in actions if a["type"] == "discard"]
    if discards and _chance(rng, lean.least_deadwood):
        hand = view["hand"]
        return min(discards, key=lambda a: deadwood([c for c in hand if c != a["card"]]))
    return rng.choice(actions)


def _chance(rng: random.Random, probability: float) -> bool:
    # No draw at all for a zero chance: a uniform player's choices stay what they were for a
    # given seed, before the lean existed.
    return probability > 0 and rng.random() < probability
