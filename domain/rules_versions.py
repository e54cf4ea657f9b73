"""Rules versions: which reading of the rules a match is played by (docs/rules.md, "Rules
versions").

A match records its rules version when it is created and keeps it: its events were decided
under that reading, so they fold, replay and verify under it for good, whatever a later
release reads. A record that names no version was made before versions were recorded: it is
version 1. A new match records the current version.

- 1: at three players, a hand won for 0 points (an undercut or a gin worth nothing) counted as
  won by nobody: no hand won, and the same dealer dealt the same two again.
- 2: the player who scores a hand has won it, for any points (RULES.md, "Scoring a hand").
"""

from __future__ import annotations

from typing import Final, Literal, get_args

RulesVersion = Literal[1, 2]
KNOWN: Final[tuple[int, ...]] = get_args(RulesVersion)

# What a record without a version was played by.
UNVERSIONED: Final = 1
# What a new match records.
CURRENT: Final = 2


def scorer_wins_every_hand(version: RulesVersion) -> bool:
    """Whether a hand's scorer has won it even for 0 points (at three players; partnerships
    score a round by its net lead, so a round with none is still won by nobody)."""
    return version >= 2
