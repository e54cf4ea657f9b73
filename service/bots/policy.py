"""A bot plays a seat: it looks at that seat's view, and nothing else, and names a command.

``bot_for(level)`` gives the bot of a strength level. Bots hold no memory between calls, so
a bot picks up a match where it stood after a restart, and two tables that look the same to
its seat get the same move from it.
"""

from __future__ import annotations

from typing import Protocol

from domain.commands import Command
from domain.errors import InvalidCommand
from domain.views import SeatView
from service.bots.hard import HardBot
from service.bots.random_bot import RandomBot
from service.bots.simple import SimpleBot
from service.bots.strong import StrongBot

# The names players see, and the names the levels had before them (kept: stored seats and
# clients use them).
ALIASES: dict[str, str] = {"easy": "simple", "medium": "strong"}
DISTINCT_LEVELS: tuple[str, ...] = ("random", "simple", "strong", "hard")  # each plays its own way
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "random", "simple", "strong")


class Bot(Protocol):
    def choose(self, view: SeatView) -> Command:
        """One of ``view.legal_actions``, or a ``Knock`` naming its melds that ``decide``
        accepts. Raises ``ValueError`` when the seat has nothing to do."""
        ...


def bot_for(level: str) -> Bot:
    level = ALIASES.get(level, level)
    if level == "random":
        return RandomBot()
    if level == "simple":
        return SimpleBot()
    if level == "strong":
        return StrongBot()
    if level == "hard":
        return HardBot()
    raise InvalidCommand(f"{level!r} is not a bot level: choose one of {', '.join(LEVELS)}")
