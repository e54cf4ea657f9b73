"""Laying off: the defender's best answer to a knock, and the knocker's arrangement.

The defender's cards split three ways: own melds, cards laid off onto the knocker's melds,
and deadwood. Laying off onto a run is a matter of reach: a defender card can join a run when
an unbroken stretch of the run's and the defender's spare cards of that suit links them, the
nearest first (after 8s and 9s on 5s6s7s, the Ts fits). So, once the sets are fixed, a spare
card is deadwood only if it sits in a short stretch (under three) that touches no knocker run.
The sets are fixed by enumeration, as for a single hand, together with the choice of laying
each fourth card of a knocker's three-card set off there or keeping it for a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import msgspec

from domain.arrangements import Arrangement, best_arrangement, best_arrangements
from domain.cards import Card, Mask, cards_of
from domain.meld_tables import (
    MELD_SET,
    RANK_A,
    RANK_K,
    RUN_SET,
    low_card,
    mask_value,
    meld_order,
    rank_groups,
    run_cover,
    set_choices,
    suit_blocks,
)


class DefenderResult(msgspec.Struct, frozen=True):
    melds: tuple[Mask, ...]  # the defender's own melds
    layoffs: tuple[tuple[int, int], ...]  # (card, index of the knocker meld), in playing order
    deadwood: Mask  # the cards that still count
    count: int


def layoff_targets(card: Card, melds: Sequence[Mask]) -> list[int]:
    """Indexes of the melds ``card`` extends as they stand: a set's 4th card, a run's end."""
    bit = 1 << card
    return [
        index
        for index, meld in enumerate(melds)
        if meld in MELD_SET and not meld & bit and meld | bit in MELD_SET
    ]


def defender_result(
    defender: Mask, knocker_melds: Sequence[Mask], *, layoffs_allowed: bool
) -> DefenderResult:
    """The defender's lowest deadwood count, with own melds and layoffs that reach it."""
    if not layoffs_allowed:
        own = best_arrangement(defender)
        return DefenderResult(own.melds, (), own.deadwood, own.count)
    runs = 0
    set_spots: list[tuple[Card, int]] = []  # a defender card completing a knocker's 3-set
    for index, meld in enumerate(knocker_melds):
        if meld in RUN_SET:
            runs |= meld
        elif meld in MELD_SET and meld.bit_count() == 3:
            fourth = RANK_A << (low_card(meld) % 13) & ~meld
            if fourth & defender:
                set_spots.append((low_card(fourth), index))
    best: list[tuple[Mask, tuple[tuple[Card, int], ...], Mask]] = []
    best_count = mask_value(defender) + 1
    spot_choices = _subsets(set_spots)
    for sets in set_choices(defender):
        for spots in spot_choices:
            spare = defender ^ sets
            for card, _ in spots:
                spare ^= 1 << card
            dead = spare & ~run_cover(spare) & ~_reach(spare, runs)
            count = mask_value(dead)
            if count < best_count:
                best, best_count = [], count
            if count == best_count:
                best.append((sets, spots, spare))
    results = [_result(sets, spots, spare, runs, knocker_melds) for sets, spots, spare in best]
    return min(results, key=lambda result: (result.melds, result.layoffs))


def knocker_arrangement(knocker: Mask, defender: Mask) -> Arrangement:
    """The knocker's lowest-deadwood arrangement leaving the defender the most deadwood.

    Ties go to the arrangement whose melds sort first.
    """
    return min(
        best_arrangements(knocker),
        key=lambda arrangement: (
            -defender_result(defender, arrangement.melds, layoffs_allowed=True).count,
            arrangement.melds,
        ),
    )


def _subsets(
    spots: list[tuple[Card, int]],
) -> list[tuple[tuple[Card, int], ...]]:
    picks = product((False, True), repeat=len(spots))
    return [tuple(spot for spot, take in zip(spots, pick, strict=True) if take) for pick in picks]


def _reach(spare: Mask, runs: Mask) -> Mask:
    """The cards of ``spare`` linked to a card of ``runs`` by consecutive same-suit cards."""
    linked = spare | runs
    reached = runs
    while True:
        grown = reached | (reached << 1 & ~RANK_A | reached >> 1 & ~RANK_K) & linked
        if grown == reached:
            return reached & spare
        reached = grown


def _result(
    sets: Mask,
    spots: tuple[tuple[Card, int], ...],
    spare: Mask,
    runs: Mask,
    knocker_melds: Sequence[Mask],
) -> DefenderResult:
    own_runs = run_cover(spare)
    laid = _reach(spare, runs) & ~own_runs
    dead = spare & ~own_runs & ~laid
    melds = rank_groups(sets) + suit_blocks(own_runs)
    layoffs = list(spots)
    # A short stretch of spare cards touching a run is laid off from the touching end out.
    for stretch in suit_blocks(laid):
        low, high = low_card(stretch), stretch.bit_length() - 1
        cards = list(cards_of(stretch))
        if low % 13 and runs >> (low - 1) & 1:
            anchor = low - 1
        else:
            anchor, cards = high + 1, cards[::-1]
        target = next(i for i, meld in enumerate(knocker_melds) if meld >> anchor & 1)
        layoffs += [(card, target) for card in cards]
    return DefenderResult(
        tuple(sorted(melds, key=meld_order)),
        tuple(layoffs),
        dead,
        mask_value(dead),
    )
