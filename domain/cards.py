"""Cards, their notation and their bitmask form.

A card is an int 0..51: ``suit * 13 + rank`` with ranks A=0 .. K=12 and suits c, d, h, s.
That layout puts a suit's ranks on consecutive bits, so a run is a contiguous bit range and
a set is four bits 13 apart. A hand is an int bitmask over those 52 bits.

Notation (``As``, ``Td``, ``7h``, ``Kc``) is parsed and printed here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from domain.errors import InvalidNotation

RANKS = "A23456789TJQK"
SUITS = "cdhs"
DECK_SIZE = 52

Card = int
Mask = int

FULL_DECK: Mask = (1 << DECK_SIZE) - 1

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME: dict[str, Card] = {name: i for i, name in enumerate(CARD_NAMES)}
# Accept the common lower-case rank letters and "10" as well; printing is always canonical.
_BY_NAME.update({name[0].lower() + name[1]: i for i, name in enumerate(CARD_NAMES)})
_BY_NAME.update({"10" + s: _BY_NAME["T" + s] for s in SUITS})

VALUES: tuple[int, ...] = tuple(min(i % 13 + 1, 10) for i in range(DECK_SIZE))


def rank_of(card: Card) -> int:
    return card % 13


def suit_of(card: Card) -> int:
    return card // 13


def value_of(card: Card) -> int:
    return VALUES[card]


def parse_card(text: str) -> Card:
    card = _BY_NAME.get(text.strip()) if isinstance(text, str) else None
    if card is None:
        raise InvalidNotation(
            f"{text!r} is not a card: write rank then suit, ranks {' '.join(RANKS)}, "
            f"suits {' '.join(SUITS)} (e.g. As, Td, 7h, Kc)"
        )
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"As Td 7h"`` or ``["As", "Td"]``; duplicates are refused."""
    words = text.split() if isinstance(text, str) else list(text)
    cards = [parse_card(word) for word in words]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidNotation(f"{CARD_NAMES[card]} is listed twice")
        seen.add(card)
    return cards


def card_name(card: Card) -> str:
    return CARD_NAMES[card]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def names(cards: Iterable[Card]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def mask_of(cards: Iterable[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards of a mask in ascending order (clubs A..K, then diamonds, hearts, spades)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_value(mask: Mask) -> int:
    return sum(VALUES[c] for c in cards_of(mask))
