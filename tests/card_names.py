"""Which cards a piece of JSON names: each card as a whole JSON string ("7H")."""

from __future__ import annotations

from domain.cards import CARD_NAMES

_NAMES = frozenset(CARD_NAMES)


def card_names_in(text: str) -> set[str]:
    """The same as asking of each card whether '"7H"' is in ``text``, at one pass over it: what
    lies between two quotes next to each other (no name holds a quote)."""
    return set(text.split('"')[1:-1]) & _NAMES
