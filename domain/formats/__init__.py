"""Three players (round robin) and four players (partnerships), built on the two-player hand.

A match of either format runs one or two two-player hand states (``domain.state.MatchState``)
at a time, each mapping its table seats 0 and 1 to seats of the match; the two-player engine
decides and folds every card of play. What this package adds is who plays whom, who sits out
and deals, and how hand results become scores of players or teams.
"""

from __future__ import annotations

from domain.formats.commands import (
    CutSeats,
    DealTable,
    FormatCommand,
    StartFormatMatch,
    decode_format_command,
)
from domain.formats.decide import decide_format
from domain.formats.events import (
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
    decode_format_event,
    encode_format_event,
)
from domain.formats.evolve import evolve_format, fold_format
from domain.formats.legal import format_legal_actions
from domain.formats.state import FormatPhase, FormatState, Players, SeatedHand
from domain.formats.views import (
    FormatSeatView,
    FormatTableView,
    format_public_view,
    format_view,
    redact_format_events,
)
from domain.scoring import Settlement

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
    "FormatState",
    "FormatTableView",
    "Players",
    "RoundScored",
    "RoundStarted",
    "SeatedHand",
    "SeatsCut",
    "Settlement",
    "StartFormatMatch",
    "TableEvent",
    "decide_format",
    "decode_format_command",
    "decode_format_event",
    "encode_format_event",
    "evolve_format",
    "fold_format",
    "format_legal_actions",
    "format_public_view",
    "format_view",
    "redact_format_events",
]
