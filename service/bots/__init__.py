"""Bot players: a seat played by the server, from that seat's view alone.

``bot_for(level)`` with a level of ``LEVELS`` gives a ``Bot`` whose ``choose(view)`` names the
seat's next command: "easy", "medium" and "hard" for players, "easy" and "medium" being the
"simple" and "strong" levels by their earlier names, and "random".
"""

from service.bots.policy import DISTINCT_LEVELS, LEVELS, Bot, bot_for

__all__ = ["DISTINCT_LEVELS", "LEVELS", "Bot", "bot_for"]
