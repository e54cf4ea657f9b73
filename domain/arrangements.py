"""One hand's melds: minimum deadwood, best arrangements, knock options, checking a choice.

Exact by construction, never greedy: for each way of taking sets (``set_choices``, one per
rank held three or more times, a four-card rank possibly split so one card joins a run) the
rest is melded by runs alone, where ``run_cover`` is the unique best. A 10- or 11-card hand
has at most three such ranks, so at most 72 choices and usually exactly one.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from domain.cards import DECK_SIZE, Mask, cards_of, format_cards
from domain.errors import IllegalMove
from domain.meld_tables import (
    MELD_SET,
    mask_value,
    meld_order,
    rank_groups,
    run_cover,
    set_choices,
    suit_blocks,
    top_value,
    triple_ranks,
)


class Arrangement(msgspec.Struct, frozen=True):
    melds: tuple[Mask, ...]  # disjoint melds, ordered by ``meld_order``
    deadwood: Mask  # the cards in no meld
    count: int  # the deadwood count: the sum of the values of ``deadwood``


def min_deadwood(hand: Mask) -> int:
    """The lowest deadwood count over every arrangement of ``hand`` into melds."""
    if not triple_ranks(hand):
        return mask_value(hand & ~run_cover(hand))
    best = mask_value(hand)
    for chosen in set_choices(hand):
        rest = hand ^ chosen
        best = min(best, mask_value(rest & ~run_cover(rest)))
    return best


def min_deadwood_after_discard(hand: Mask) -> int:
    """The lowest deadwood count of ``hand`` less one card, over every card (0 if empty).

    Putting aside the highest deadwood card of an arrangement is as good as any discard:
    discarding a melded card never frees more than it costs.
    """
    best = mask_value(hand)
    for chosen in set_choices(hand):
        rest = hand ^ chosen
        dead = rest & ~run_cover(rest)
        if not dead and hand.bit_count() % 3 == 0:
            # Fully melded in threes, every discard may break a meld: ask each card.
            return min(knock_options(hand).values(), default=0)
        best = min(best, mask_value(dead) - top_value(dead))
    return best


def knock_options(hand: Mask) -> dict[int, int]:
    """Each card of ``hand`` mapped to the minimum deadwood of the cards left without it."""
    return {card: min_deadwood(hand ^ (1 << card)) for card in cards_of(hand)}


def is_big_gin(hand: Mask) -> bool:
    """All eleven cards of ``hand`` form melds."""
    return hand.bit_count() == 11 and min_deadwood(hand) == 0


def best_arrangement(hand: Mask) -> Arrangement:
    """A minimum-deadwood arrangement; among equals, the one whose melds sort first."""
    return best_arrangements(hand)[0]


def best_arrangements(hand: Mask) -> list[Arrangement]:
    """Every minimum-deadwood arrangement of ``hand``, sorted by melds.

    Runs are kept whole (5s 6s 7s 8s 9s Ts, never 5s 6s 7s + 8s 9s Ts): splitting a run changes
    nothing a player can lay off, so the two are not told apart.
    """
    candidates = []
    for chosen in set_choices(hand):
        rest = hand ^ chosen
        dead = rest & ~run_cover(rest)
        candidates.append((mask_value(dead), chosen, dead))
    best = min(count for count, _, _ in candidates)
    found = [
        _arrangement(hand, chosen, dead, count)
        for count, chosen, dead in candidates
        if count == best
    ]
    return sorted(found, key=lambda arrangement: arrangement.melds)


def _arrangement(hand: Mask, sets: Mask, dead: Mask, count: int) -> Arrangement:
    melds = rank_groups(sets) + suit_blocks(hand & ~sets & ~dead)
    return Arrangement(tuple(sorted(melds, key=meld_order)), dead, count)


def is_meld(cards: Mask) -> bool:
    return cards in MELD_SET


def arrangement_of(hand: Mask, melds: Sequence[Mask]) -> Arrangement:
    """Check a player's chosen melds against ``hand`` and count what is left."""
    used = 0
    for meld in melds:
        if not is_meld(meld):
            raise IllegalMove(
                f"{_describe(meld)} is not a meld: a meld is 3 or 4 cards of one rank, "
                "or 3 or more cards of one suit in sequence"
            )
        if meld & ~hand:
            missing = meld & ~hand
            verb = "is" if missing.bit_count() == 1 else "are"
            raise IllegalMove(f"{_describe(missing)} {verb} not in the hand")
        if meld & used:
            raise IllegalMove(f"{_describe(meld & used)} cannot be in two melds")
        used |= meld
    dead = hand & ~used
    return Arrangement(tuple(sorted(melds, key=meld_order)), dead, mask_value(dead))


def gin_kept(hand: Mask, named: Arrangement) -> Arrangement:
    """``named`` (a player's arrangement of ``hand``), unless ``hand`` melds completely and
    ``named`` leaves cards out: gin cannot be declined, so the hand is shown with no deadwood,
    the named melds kept when the cards left out meld by themselves."""
    if not named.count or min_deadwood(hand):
        return named
    rest = best_arrangement(named.deadwood)
    if rest.count:
        return best_arrangement(hand)
    return Arrangement(tuple(sorted(named.melds + rest.melds, key=meld_order)), 0, 0)


def _describe(cards: Mask) -> str:
    """The cards in rank order, as a player reads a meld."""
    if cards <= 0 or cards >> DECK_SIZE:
        return "that group of cards"
    return format_cards(sorted(cards_of(cards), key=lambda card: (card % 13, card)))
