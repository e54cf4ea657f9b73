"""What playing on is worth, instead of knocking now: a few turns played out on each sampled
opponent hand, with stock cards drawn from the cards the seat has not seen.

The opponent is played as a player that knocks as soon as it may: it takes the card thrown to
it when that makes a meld, else draws, and throws its worst card; a knock of its is scored
exactly against this seat's hand. This seat throws the card it would have thrown, then its
worst card, and after each draw either has gin (scored at once) or, on the last turn played,
knocks with its least deadwood. Each horizon's mean is kept, so the caller can set knocking
now against playing on for one turn, two, and so on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.cards import Card, Mask, cards_of, value_of
from domain.melds import best_arrangement, defender_result, min_deadwood
from domain.options import RuleOptions
from service.bots.neighbours import in_some_meld


def play_on_values(
    hand: Mask,
    thrown: Card,
    hands: Sequence[Mask],
    unseen: Mask,
    knock_limit: int,
    options: RuleOptions,
    rng: random.Random,
    turns: int,
) -> list[float]:
    """This seat's mean points when it throws ``thrown`` and plays on, by horizon: entry
    ``t`` knocks (or goes gin) after ``t + 1`` more draws of its own."""
    totals = [0.0] * turns
    for opponent in hands:
        mine = hand ^ 1 << thrown
        played = _played_out(mine, thrown, opponent, unseen, knock_limit, options, rng, turns)
        for turn, points in enumerate(played):
            totals[turn] += points
    return [total / len(hands) for total in totals]


def _played_out(
    mine: Mask,
    thrown: Card,
    theirs: Mask,
    unseen: Mask,
    knock_limit: int,
    options: RuleOptions,
    rng: random.Random,
    turns: int,
) -> list[float]:
    """The points of each horizon on one sampled hand; once the hand has ended, every later
    horizon scores what it ended with."""
    stock = list(cards_of(unseen & ~theirs))
    rng.shuffle(stock)
    results: list[float] = []
    ended = False
    while len(results) < turns and not ended and len(stock) > 2:
        taken = in_some_meld(theirs, thrown)
        theirs |= 1 << (thrown if taken else stock.pop())
        theirs, count, thrown = _least_deadwood(theirs, kept=thrown if taken else None)
        if count <= knock_limit:
            results.append(-_knock_points(theirs, count, mine, options))
            break
        mine, count, thrown = _least_deadwood(mine | 1 << stock.pop(), kept=None)
        results.append(_knock_points(mine, count, theirs, options))
        ended = count == 0
    results.extend([results[-1] if results else 0.0] * (turns - len(results)))
    return results


def _least_deadwood(hand: Mask, kept: Card | None) -> tuple[Mask, int, Card]:
    """The ten cards of eleven keeping the least deadwood, their count, and the card put
    aside (never ``kept``, a card just taken from the pile)."""
    arrangement = best_arrangement(hand)
    loose = arrangement.deadwood & ~(0 if kept is None else 1 << kept)
    if loose:
        card = max(cards_of(loose), key=lambda each: (value_of(each), each))
        return hand ^ 1 << card, arrangement.count - value_of(card), card
    choices = [card for card in cards_of(hand) if card != kept]
    counts = {card: min_deadwood(hand ^ 1 << card) for card in choices}
    card = min(choices, key=lambda each: (counts[each], -value_of(each)))
    return hand ^ 1 << card, counts[card], card


def _knock_points(knocker: Mask, count: int, defender: Mask, options: RuleOptions) -> float:
    """The knocker's points (negative: the defender's) when ``knocker`` goes out now."""
    if count == 0:
        return options.gin_bonus + min_deadwood(defender)
    melds = best_arrangement(knocker).melds
    left = defender_result(defender, melds, layoffs_allowed=True).count
    if left > count:
        return left - count
    if left < count or options.undercut_on_tie:
        return -(count - left + options.undercut_bonus)
    return 0.0
