"""A random stream seeded by the view itself: the same view always gets the same stream, so a
bot that samples still gives the same move to two tables its seat cannot tell apart, and no
global random state is touched."""

from __future__ import annotations

import hashlib
import random

from domain.views import SeatView


def view_seeded(view: SeatView, purpose: str = "") -> random.Random:
    """A stream for ``view``; each ``purpose`` gets its own, unrelated to the others."""
    return random.Random(hashlib.sha256(f"{purpose}{view!r}".encode()).digest())
