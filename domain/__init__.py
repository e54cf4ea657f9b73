"""The gin rummy domain: cards, melds, rules and the flow of a match. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Iterable

from domain.cards import mask_of, parse_cards
from domain.errors import InvalidCommand
from domain.melds import min_deadwood


def deadwood(cards: str | Iterable[str]) -> int:
    """The minimum deadwood count of 0..11 cards in notation: ``deadwood("As 2s 3s Kd") == 10``."""
    parsed = parse_cards(cards)
    if len(parsed) > 11:
        raise InvalidCommand(f"a hand holds at most 11 cards, not {len(parsed)}")
    return min_deadwood(mask_of(parsed))


# The rules engine: commands in, events out, state as a fold of the events.
from domain.commands import (  # noqa: E402
    COMMAND_TYPES,
    BigGin,
    ChooseDealer,
    Command,
    Cut,
    Deal,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    PassUpcard,
    StartMatch,
    TakeUpcard,
    decode_command,
    encode_command,
)
from domain.decide import decide  # noqa: E402
from domain.events import (  # noqa: E402
    EVENT_TYPES,
    CardsCut,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    Event,
    GameWon,
    HandDrawn,
    Knocked,
    LaidOff,
    MatchCreated,
    MatchWon,
    Scored,
    UpcardPassed,
    decode_event,
    encode_event,
    event_type,
)
from domain.evolve import evolve, fold  # noqa: E402
from domain.legal import legal_actions  # noqa: E402
from domain.options import RuleOptions, parse_options  # noqa: E402
from domain.shuffle import shuffled_deck  # noqa: E402
from domain.state import HandState, MatchState, Phase, new_match  # noqa: E402
from domain.views import SeatView, TableView, public_view, redact_event, view  # noqa: E402

__all__ = [
    "COMMAND_TYPES",
    "EVENT_TYPES",
    "BigGin",
    "CardsCut",
    "ChooseDealer",
    "Command",
    "Cut",
    "Deal",
    "DealerChosen",
    "Dealt",
    "Discard",
    "Discarded",
    "DrawFromDiscard",
    "DrawFromStock",
    "Drew",
    "Event",
    "FinishLayoff",
    "GameWon",
    "HandDrawn",
    "HandState",
    "Knock",
    "Knocked",
    "LaidOff",
    "LayOff",
    "MatchCreated",
    "MatchState",
    "MatchWon",
    "PassUpcard",
    "Phase",
    "RuleOptions",
    "Scored",
    "SeatView",
    "StartMatch",
    "TableView",
    "TakeUpcard",
    "UpcardPassed",
    "deadwood",
    "decide",
    "decode_command",
    "decode_event",
    "encode_command",
    "encode_event",
    "event_type",
    "evolve",
    "fold",
    "legal_actions",
    "new_match",
    "parse_options",
    "public_view",
    "redact_event",
    "shuffled_deck",
    "view",
]
