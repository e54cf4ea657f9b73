"""Bot players: a seat played by the server, from that seat's view alone.

``bot_for(level)`` with a level of ``LEVELS`` ("random", "simple", "strong") gives a ``Bot``
whose ``choose(view)`` names the seat's next command.
"""

from service.bots.policy import LEVELS, Bot, bot_for

__all__ = ["LEVELS", "Bot", "bot_for"]
