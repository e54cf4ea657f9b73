"""The arithmetic of docs/rules.md "Scoring a hand", "A game" and "A match"; no flow of play."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

import msgspec

from domain.events import Outcome
from domain.options import RuleOptions


class HandScore(NamedTuple):
    outcome: Outcome
    winner: int | None  # None: a tie that scores nothing
    points: int


def score_hand(
    knocker: int,
    knocker_deadwood: int,
    defender_deadwood: int,
    *,
    gin: bool,
    big_gin: bool,
    multiplier: int,
    options: RuleOptions,
) -> HandScore:
    """K the knocker's deadwood, D the defender's after layoffs; gin cannot be undercut."""
    k, d = knocker_deadwood, defender_deadwood
    if big_gin:
        return HandScore("big_gin", knocker, (d + options.big_gin_bonus) * multiplier)
    if gin:
        return HandScore("gin", knocker, (d + options.gin_bonus) * multiplier)
    if d > k:
        return HandScore("knock", knocker, (d - k) * multiplier)
    if d < k or options.undercut_on_tie:
        return HandScore("undercut", 1 - knocker, (k - d + options.undercut_bonus) * multiplier)
    return HandScore("tie", None, 0)


def game_winner(hand_points: Sequence[int], options: RuleOptions) -> int | None:
    """The side whose hand points reached the game target (only one scores per hand)."""
    for side, points in enumerate(hand_points):
        if points >= options.game_target:
            return side
    return None


class Settlement(msgspec.Struct, frozen=True):
    """Two sides settle a game: each total is hand points plus bonuses, and the higher total
    (``scored_by``) scores the difference, ``points``."""

    sides: list[int]
    totals: list[int]
    shutout_bonus: int
    scored_by: int | None
    points: int


def settle_game(
    winner: int, hand_points: Sequence[int], hands_won: Sequence[int], options: RuleOptions
) -> list[Settlement]:
    """Every two sides settle: each side's total is its hand points and a line bonus per
    hand (or round) won; the game's winner adds the game bonus, and the shutout bonus against a
    side that won nothing. The higher total scores the difference (the Romanian source says so
    in those words): that is the winner unless the loser won many more hands, since line
    bonuses can outweigh the game bonus."""
    settlements = []
    for pair in combinations(range(len(hand_points)), 2):
        totals = [hand_points[side] + hands_won[side] * options.line_bonus for side in pair]
        shutout = 0
        if winner in pair:
            loser = pair[1 - pair.index(winner)]
            shutout = options.shutout_bonus if hands_won[loser] == 0 else 0
            totals[pair.index(winner)] += options.game_bonus + shutout
        difference = totals[0] - totals[1]
        scored_by = pair[0] if difference > 0 else pair[1] if difference < 0 else None
        settlements.append(Settlement(list(pair), totals, shutout, scored_by, abs(difference)))
    return settlements


class GameTally(NamedTuple):
    game_bonus: int
    line_bonuses: tuple[int, int]
    shutout_bonus: int
    totals: tuple[int, int]
    scored_by: int | None  # the higher total, which scores the difference
    points: int


def tally_game(
    winner: int, hand_points: tuple[int, int], hands_won: tuple[int, int], options: RuleOptions
) -> GameTally:
    """Game, line and shutout bonuses, and what the game is worth in the match: the
    settlement of two sides."""
    ((settled),) = settle_game(winner, hand_points, hands_won, options)
    line = (hands_won[0] * options.line_bonus, hands_won[1] * options.line_bonus)
    first, second = settled.totals
    return GameTally(
        options.game_bonus,
        line,
        settled.shutout_bonus,
        (first, second),
        settled.scored_by,
        settled.points,
    )


def match_winner(match_scores: Sequence[int], game_winner: int, options: RuleOptions) -> int | None:
    """The side with the highest match score once it reaches the target (a target of 0: after
    one game); equal highest scores go to the winner of the last game if among them, else to
    the lowest side."""
    best = max(
        range(len(match_scores)),
        key=lambda side: (match_scores[side], side == game_winner, -side),
    )
    if options.match_target == 0 or match_scores[best] >= options.match_target:
        return best
    return None
