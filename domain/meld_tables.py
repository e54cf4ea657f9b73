"""Meld tables and bit primitives over 52-bit hands.

With ``card = suit * 13 + rank`` a run is a stretch of consecutive bits inside one suit's 13
bits and a set is bits ``rank + 13 * k``. Every question about runs is answered with shifts and
masks over the whole hand at once; only sets need a (tiny) enumeration, because a card of a
rank held three or four times may serve in a set or in a run.
"""

from __future__ import annotations

from itertools import combinations

from domain.cards import DECK_SIZE, Card, Mask

SUIT_BITS: Mask = (1 << 13) - 1
RANK_A: Mask = 1 | 1 << 13 | 1 << 26 | 1 << 39  # the four aces; shift by rank for any rank
RANK_K: Mask = RANK_A << 12
# A run of three may start at ranks A..J; the mask stops a run wrapping into the next suit.
RUN_STARTS: Mask = sum(((1 << 11) - 1) << (13 * suit) for suit in range(4))


def _value_bit_masks() -> tuple[Mask, Mask, Mask, Mask]:
    # value = 1 + min(rank, 9); the binary digits of min(rank, 9) as four card masks
    digits = [0, 0, 0, 0]
    for card in range(DECK_SIZE):
        extra = min(card % 13, 9)
        for bit in range(4):
            if extra >> bit & 1:
                digits[bit] |= 1 << card
    return digits[0], digits[1], digits[2], digits[3]


_V1, _V2, _V4, _V8 = _value_bit_masks()


def mask_value(mask: Mask) -> int:
    """The sum of the card values in ``mask``, by popcounts (no loop over cards)."""
    return (
        mask.bit_count()
        + (mask & _V1).bit_count()
        + 2 * (mask & _V2).bit_count()
        + 4 * (mask & _V4).bit_count()
        + 8 * (mask & _V8).bit_count()
    )


def top_value(mask: Mask) -> int:
    """The highest card value in ``mask`` (0 for no cards)."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_BITS
    return min(ranks.bit_length(), 10)


def run_cover(mask: Mask) -> Mask:
    """The cards of ``mask`` lying in a same-suit stretch of three or more consecutive ranks.

    Melding exactly these cards as runs is the unique best use of ``mask`` by runs alone:
    any run inside ``mask`` lies inside one such stretch, and each stretch is itself a run.
    """
    starts = mask & mask >> 1 & mask >> 2 & RUN_STARTS
    return starts | starts << 1 | starts << 2


def triple_ranks(mask: Mask) -> int:
    """The 13-bit set of ranks held at least three times in ``mask``."""
    c, d = mask & SUIT_BITS, mask >> 13 & SUIT_BITS
    h, s = mask >> 26 & SUIT_BITS, mask >> 39 & SUIT_BITS
    return (c & d & (h | s)) | (h & s & (c | d))


def suit_blocks(mask: Mask) -> list[Mask]:
    """Split ``mask`` into its maximal same-suit stretches of consecutive ranks, lowest first."""
    blocks: list[Mask] = []
    for suit in range(4):
        bits = mask >> (13 * suit) & SUIT_BITS
        while bits:
            low = bits & -bits
            block = bits & ~(bits + low)
            blocks.append(block << (13 * suit))
            bits ^= block
    return blocks


def rank_groups(mask: Mask) -> list[Mask]:
    """Split ``mask`` by rank (the sets of a union of sets), lowest rank first."""
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & SUIT_BITS
    groups: list[Mask] = []
    while ranks:
        low = ranks & -ranks
        groups.append(mask & RANK_A << (low.bit_length() - 1))
        ranks ^= low
    return groups


def _all_sets() -> list[Mask]:
    sets: list[Mask] = []
    for rank in range(13):
        cards = [rank + 13 * suit for suit in range(4)]
        for size in (3, 4):
            sets.extend(sum(1 << c for c in chosen) for chosen in combinations(cards, size))
    return sets


def _all_runs() -> list[Mask]:
    return [
        ((1 << length) - 1) << (13 * suit + start)
        for suit in range(4)
        for length in range(3, 14)
        for start in range(14 - length)
    ]


SETS: tuple[Mask, ...] = tuple(_all_sets())
RUNS: tuple[Mask, ...] = tuple(_all_runs())
ALL_MELDS: tuple[Mask, ...] = SETS + RUNS
MELD_SET: frozenset[Mask] = frozenset(ALL_MELDS)
RUN_SET: frozenset[Mask] = frozenset(RUNS)

# For each 3- or 4-card holding of one rank: the choices of set to take from it, "none" first.
_SET_CHOICES: dict[Mask, tuple[Mask, ...]] = {
    holding: (0, *(s for s in SETS if s & holding == s)) for holding in SETS
}


def set_choices(hand: Mask) -> list[Mask]:
    """Every way to take disjoint sets from ``hand``, as the union of the chosen sets' cards.

    At most one set per rank, so each choice is a union over the ranks held three or more
    times; ``0`` (no sets) is always the first choice.
    """
    choices = [0]
    ranks = triple_ranks(hand)
    while ranks:
        low = ranks & -ranks
        options = _SET_CHOICES[hand & (RANK_A << (low.bit_length() - 1))]
        choices = [chosen | option for chosen in choices for option in options]
        ranks ^= low
    return choices


def low_card(mask: Mask) -> Card:
    return (mask & -mask).bit_length() - 1


def meld_order(meld: Mask) -> tuple[Card, Mask]:
    """Melds are listed by their lowest card (clubs A first), then by their cards."""
    return low_card(meld), meld
