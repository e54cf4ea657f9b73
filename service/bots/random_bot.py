"""The random level: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from domain.commands import Command
from domain.views import SeatView
from service.bots.actions import require_a_move
from service.bots.seeded import view_seeded


class RandomBot:
    """Without ``rng`` the choice is seeded by the view itself, so the same view always gets
    the same move and no global random state is touched; pass an ``rng`` to share a stream
    (as a benchmark does)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng

    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        rng = self._rng or view_seeded(view)
        return rng.choice(view.legal_actions)
