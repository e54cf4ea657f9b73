"""Deadwood: ``domain.melds`` against OpenSpiel's ``GinRummyUtils`` on the same hands.

    .venv/bin/python -m bench.deadwood [--hands N] [--seed S]

OpenSpiel numbers a card ``suit * 13 + rank`` like we do, but with its suits in the order
s c d h; hands are converted before any timing. Its ``min_deadwood`` of 11 cards is the
count after a discard: it takes one best arrangement and drops that arrangement's highest
deadwood card, which is not always the best card to put aside, so on 11 cards it is compared
with our ``min_deadwood_after_discard`` and the disagreements are counted and checked by brute
force. Speeds are calls per second, best of three rounds; the ratio is ours / OpenSpiel's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from domain.cards import Mask, cards_of, format_cards, mask_value
from domain.melds import (
    ALL_MELDS,
    best_arrangement,
    defender_result,
    knock_options,
    min_deadwood,
    min_deadwood_after_discard,
)

OPENSPIEL_SUIT = {0: 1, 1: 2, 2: 3, 3: 0}  # ours c d h s -> OpenSpiel's s c d h
LAYOFFS = {"layoffs_allowed": True}
SHORT_MELDS = [meld for meld in ALL_MELDS if meld.bit_count() <= 5]


def openspiel_cards(hand: Mask) -> list[int]:
    return [OPENSPIEL_SUIT[card // 13] * 13 + card % 13 for card in cards_of(hand)]


def uniform_hand(rng: random.Random, size: int) -> Mask:
    return sum(1 << card for card in rng.sample(range(52), size))


def dense_hand(rng: random.Random, size: int) -> Mask:
    """Melds, melds less a card and stray cards: the hands where arranging is hard."""
    hand = 0
    for _ in range(rng.randint(1, 4)):
        meld = rng.choice(SHORT_MELDS)
        if rng.random() < 0.3:
            meld ^= 1 << rng.choice(list(cards_of(meld)))
        hand |= meld
    cards = list(cards_of(hand))
    rng.shuffle(cards)
    kept = cards[:size]
    rest = [card for card in range(52) if card not in kept]
    return sum(1 << card for card in kept + rng.sample(rest, size - len(kept)))


def calls_per_second(function: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for item in inputs:
            function(item)
        best = min(best, time.perf_counter() - start)
    return len(inputs) / best


def brute_after_discard(hand: Mask) -> int:
    """Every card put aside, every set of disjoint melds of the rest: the plain definition."""
    inside = [meld for meld in ALL_MELDS if meld & hand == meld]

    def least(cards: Mask, start: int) -> int:
        best = mask_value(cards)
        for i in range(start, len(inside)):
            if inside[i] & cards == inside[i]:
                best = min(best, least(cards ^ inside[i], i + 1))
        return best

    return min(least(hand ^ 1 << card, 0) for card in cards_of(hand))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="timed hands of each kind")
    parser.add_argument("--scan", type=int, default=40000, help="11-card hands checked, untimed")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    print(
        f"{'ours':<28} {'hands':<11} {'ours /s':>10} {'OpenSpiel /s':>13} {'ratio':>6} "
        f"{'differ':>6}"
    )
    print("-" * 79)
    for name, ours, size in (
        ("min_deadwood", min_deadwood, 10),
        ("min_deadwood_after_discard", min_deadwood_after_discard, 11),
    ):
        for kind, make in (("uniform", uniform_hand), ("dense", dense_hand)):
            hands = [make(rng, size) for _ in range(args.hands)]
            theirs = [openspiel_cards(hand) for hand in hands]
            differ = sum(
                ours(hand) != utils.min_deadwood(cards)
                for hand, cards in zip(hands, theirs, strict=True)
            )
            speed = calls_per_second(ours, hands)
            _row(name, f"{kind} {size}", speed, utils.min_deadwood, theirs, str(differ))
    deals = [_deal(rng) for _ in range(args.hands)]
    defenders = [openspiel_cards(defender) for _, defender in deals]
    speed = calls_per_second(lambda deal: defender_result(deal[1], deal[0], **LAYOFFS), deals)
    _row("defender_result (layoffs)", "dense 10", speed, utils.min_deadwood, defenders, "-")
    print(
        "OpenSpiel runs min_deadwood on the same hands each time; on 11 cards that is its\n"
        "count after a discard, and for defender_result its count without layoffs."
    )

    scanned = [(dense_hand if i % 2 else uniform_hand)(rng, 11) for i in range(args.scan)]
    counts = [
        (hand, utils.min_deadwood(openspiel_cards(hand)), min_deadwood_after_discard(hand))
        for hand in scanned
    ]
    wrong = [(hand, theirs, exact) for hand, theirs, exact in counts if theirs != exact]
    higher = sum(theirs > exact for _, theirs, exact in wrong)
    print(
        f"\n11-card deadwood after a discard, {len(scanned)} hands (half dense): "
        f"{len(wrong)} disagree, OpenSpiel higher on {higher}"
    )
    for hand, theirs, exact in wrong[:3]:
        print(
            f"  {format_cards(cards_of(hand))}: OpenSpiel {theirs}, ours {exact}, "
            f"brute force {brute_after_discard(hand)}; {_describe(hand)}"
        )


def _row(
    name: str,
    hands: str,
    ours: float,
    reference: Callable[[list[int]], int],
    inputs: list[list[int]],
    differ: str,
) -> None:
    theirs = calls_per_second(reference, inputs)
    print(
        f"{name:<28} {hands:<11} {ours:>10,.0f} {theirs:>13,.0f} {ours / theirs:>6.2f} {differ:>6}"
    )


def _describe(hand: Mask) -> str:
    """Our best card to put aside and the arrangement of the ten left."""
    options = knock_options(hand)
    aside = min(options, key=lambda card: (options[card], card))
    arrangement = best_arrangement(hand ^ 1 << aside)
    melds = " | ".join(format_cards(cards_of(meld)) for meld in arrangement.melds)
    dead = format_cards(cards_of(arrangement.deadwood)) or "none"
    return f"put {format_cards([aside])} aside: {melds} + deadwood {dead}"


def _deal(rng: random.Random) -> tuple[tuple[Mask, ...], Mask]:
    """A knocker's melds (from a dense hand) and a defender's ten cards, some next to them."""
    knocker = dense_hand(rng, 10)
    near = list(cards_of(_neighbours(knocker)))
    defender = sum(1 << card for card in rng.sample(near, min(len(near), rng.randint(0, 5))))
    rest = [card for card in range(52) if not (knocker | defender) >> card & 1]
    defender |= sum(1 << card for card in rng.sample(rest, 10 - defender.bit_count()))
    return best_arrangement(knocker).melds, defender


def _neighbours(hand: Mask) -> Mask:
    """Cards of the same rank, or of the same suit within two ranks, not in ``hand``."""
    near = 0
    for card in cards_of(hand):
        rank, suit = card % 13, card // 13
        near |= sum(1 << (13 * other + rank) for other in range(4))
        near |= sum(1 << (13 * suit + r) for r in range(max(0, rank - 2), min(13, rank + 3)))
    return near & ~hand


if __name__ == "__main__":
    main()
