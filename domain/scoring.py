"""The arithmetic of docs/rules.md "Scoring a hand", "A game" and "A match"; no flow of play."""

from __future__ import annotations

from typing import NamedTuple

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


def game_winner(hand_points: tuple[int, int], options: RuleOptions) -> int | None:
    """The player whose hand points reached the game target (only one scores per hand)."""
    for seat in (0, 1):
        if hand_points[seat] >= options.game_target:
            return seat
    return None


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
    """Game, line and shutout bonuses, and what the game is worth in the match.

    The player with the higher total scores the difference (the Romanian source says so in
    those words). That is the winner unless the loser won many more hands: line bonuses can
    outweigh the game bonus.
    """
    loser = 1 - winner
    line = (hands_won[0] * options.line_bonus, hands_won[1] * options.line_bonus)
    shutout = options.shutout_bonus if hands_won[loser] == 0 else 0
    totals = [hand_points[0] + line[0], hand_points[1] + line[1]]
    totals[winner] += options.game_bonus + shutout
    difference = totals[winner] - totals[loser]
    scored_by = winner if difference > 0 else loser if difference < 0 else None
    return GameTally(
        options.game_bonus, line, shutout, (totals[0], totals[1]), scored_by, abs(difference)
    )


def match_winner(
    match_scores: tuple[int, int], last_game_winner: int, options: RuleOptions
) -> int | None:
    """Whoever reached the match target. A target of 0 ends the match after one game, won by
    the higher match score (on equal scores, by the winner of that game)."""
    if match_scores[0] == match_scores[1]:
        best = last_game_winner
    else:
        best = 0 if match_scores[0] > match_scores[1] else 1
    if options.match_target == 0 or match_scores[best] >= options.match_target:
        return best
    return None
