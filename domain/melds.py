"""The card maths of gin rummy over hands as 52-bit masks (see ``domain.cards``).

Exact everywhere: every deadwood count is the minimum over all arrangements. The work is
split by question: ``meld_tables`` (the bit layout and the melds), ``arrangements`` (one
hand) and ``layoffs`` (a knocker and a defender); this module is the one to import.
"""

from __future__ import annotations

from domain.arrangements import (
    Arrangement,
    arrangement_of,
    best_arrangement,
    best_arrangements,
    gin_kept,
    is_big_gin,
    is_meld,
    knock_options,
    min_deadwood,
    min_deadwood_after_discard,
)
from domain.cards import Mask
from domain.layoffs import DefenderResult, defender_result, knocker_arrangement, layoff_targets
from domain.meld_tables import ALL_MELDS

Meld = Mask  # a meld is the bitmask of its cards


def melds_in(hand: Mask) -> list[Meld]:
    """Every meld whose cards are all in ``hand``, in ``ALL_MELDS`` order."""
    return [meld for meld in ALL_MELDS if meld & hand == meld]


__all__ = [
    "ALL_MELDS",
    "Arrangement",
    "DefenderResult",
    "Meld",
    "arrangement_of",
    "best_arrangement",
    "best_arrangements",
    "defender_result",
    "gin_kept",
    "is_big_gin",
    "is_meld",
    "knock_options",
    "knocker_arrangement",
    "layoff_targets",
    "melds_in",
    "min_deadwood",
    "min_deadwood_after_discard",
]
