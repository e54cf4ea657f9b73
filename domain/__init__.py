"""The gin rummy domain: cards, melds, rules and the flow of a match. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Iterable


def deadwood(cards: str | Iterable[str]) -> int:
    """The minimum deadwood count of 0..11 cards in notation: ``deadwood("As 2s 3s Kd") == 10``."""
    # Imported here so that ``import domain`` stays light for tools that need only notation.
    from domain.cards import mask_of, parse_cards
    from domain.errors import InvalidCommand
    from domain.melds import min_deadwood

    parsed = parse_cards(cards)
    if len(parsed) > 11:
        raise InvalidCommand(f"a hand holds at most 11 cards, not {len(parsed)}")
    return min_deadwood(mask_of(parsed))
