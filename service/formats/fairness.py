"""The fairness stream of a three- or four-player match: which records are due at each point.

The records and the chains are those of a two-player match (``service.fairness``), with one
seed per deal and so one per table. What differs is when a deal's seed may be revealed. A
revealed link gives every earlier link of its chain, so a seed is shown only once the hand it
dealt and every hand dealt before it are over: in the four-player game the second table's seed
waits for the first table's hand, since it would give the first table's link (and so its
deck) while that hand is in play. One table plays at a time in the three-player game, so there
the rule is the two-player one: the seat sitting out learns each deck only once its hand ends.
Once the match is over every seed is revealed, as the server secret is.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import Dealt, HandDrawn, MatchEnded, Scored
from domain.formats import (
    FormatEvent,
    FormatMatchWon,
    FormatPhase,
    FormatState,
    SeatsCut,
    TableEvent,
)
from service.fairness.events import Slot, slots_revealing


def format_fairness_slots(state: FormatState, links: int) -> list[Slot]:
    """The records due once the match has reached ``state``."""
    dealt = [table for table in state.tables if table.dealt]
    over = 0
    for table in dealt:  # tables are dealt in order, so deal order is table order
        if not table.over:
            break
        over += 1
    match_over = state.phase is FormatPhase.MATCH_OVER
    # A match that ended mid-round reveals that round's seeds too: its record shows it all.
    return slots_revealing(
        cut=state.cut is not None,
        deals=state.deals,
        revealed=state.deals if match_over else state.deals - len(dealt) + over,
        match_over=match_over,
        links=links,
        deals_per_round=2 if state.players == 4 else 1,
    )


def touches_format_fairness(events: Sequence[FormatEvent]) -> bool:
    """Whether appending ``events`` may make fairness records due."""
    return any(
        isinstance(e, SeatsCut | FormatMatchWon | MatchEnded)
        or (isinstance(e, TableEvent) and isinstance(e.event, Dealt | Scored | HandDrawn))
        for e in events
    )
