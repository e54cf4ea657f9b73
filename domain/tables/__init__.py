"""The match of tables: three players (round robin) and four (partnerships) play in rounds,
each round one or two tables, each table a two-player hand.

A match of either format runs one or two two-player hand states (``domain.state.HandState``)
at a time, each mapping its table seats 0 and 1 to seats of the match; the two-player engine
decides and folds every card of play. What this package adds is who plays whom, who sits out
and deals, and how hand results become scores of players or teams (``TablesState``,
``decide_tables``, ``fold_tables``, ``tables_view``: the state, decisions, fold and views of
such a match; the event and command types keep the names their stored tags were given).
"""

from __future__ import annotations

from domain.scoring import Settlement
from domain.tables.commands import (
    CutSeats,
    DealTable,
    FormatCommand,
    StartFormatMatch,
    decode_tables_command,
)
from domain.tables.decide import decide_tables
from domain.tables.events import (
    FORMAT_MATCH_ENDING_TYPES,
    FORMAT_MATCH_ENDINGS,
    FormatEvent,
    FormatGameWon,
    FormatMatchCreated,
    FormatMatchWon,
    RoundScored,
    RoundStarted,
    SeatsCut,
    TableEvent,
    decode_tables_event,
    encode_tables_event,
    unwrapped,
)
from domain.tables.evolve import evolve_tables, fold_tables
from domain.tables.legal import tables_legal_actions
from domain.tables.state import FormatPhase, Players, SeatedHand, TablesState
from domain.tables.views import (
    FormatSeatView,
    FormatTableView,
    redact_tables_events,
    tables_public_view,
    tables_view,
)

__all__ = [
    "FORMAT_MATCH_ENDINGS",
    "FORMAT_MATCH_ENDING_TYPES",
    "CutSeats",
    "DealTable",
    "FormatCommand",
    "FormatEvent",
    "FormatGameWon",
    "FormatMatchCreated",
    "FormatMatchWon",
    "FormatPhase",
    "FormatSeatView",
    "FormatTableView",
    "Players",
    "RoundScored",
    "RoundStarted",
    "SeatedHand",
    "SeatsCut",
    "Settlement",
    "StartFormatMatch",
    "TableEvent",
    "TablesState",
    "decide_tables",
    "decode_tables_command",
    "decode_tables_event",
    "encode_tables_event",
    "evolve_tables",
    "fold_tables",
    "redact_tables_events",
    "tables_legal_actions",
    "tables_public_view",
    "tables_view",
    "unwrapped",
]
