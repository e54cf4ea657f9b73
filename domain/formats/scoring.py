"""The arithmetic of RULES.md "Three and four players": a round's result, and settling a game
between every two sides. No flow of play."""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

from domain.events import HandDrawn, Scored
from domain.formats.events import Settlement
from domain.options import RuleOptions
from domain.rules_versions import RulesVersion, scorer_wins_every_hand


class RoundResult(NamedTuple):
    points: tuple[int, ...]  # by side: what its members won in the round's hands
    winner: int | None
    net: int


def round_result(
    sides: int,
    results: list[tuple[tuple[int, int], Scored | HandDrawn]],
    side_of: list[int],
    rules_version: RulesVersion,
) -> RoundResult:
    """``results``: each table's match seats and the end of its hand. A hand at the wall, or a
    tie that scores nothing, adds nothing; each side's points are its members' sums. A round
    of one hand (three players) is won by whoever scored the hand, with its points, even 0
    (under rules version 1, a round worth 0 was won by nobody); a round of two hands
    (partnerships) by the side ahead, which scores the difference to the side behind, and by
    nobody when neither is ahead."""
    points = [0] * sides
    scorer = None
    for seats, end in results:
        if isinstance(end, Scored) and end.winner is not None:
            scorer = side_of[seats[end.winner]]
            points[scorer] += end.points
    if len(results) == 1 and scorer is not None and scorer_wins_every_hand(rules_version):
        return RoundResult(tuple(points), scorer, points[scorer])
    ranked = sorted(range(sides), key=lambda side: points[side], reverse=True)
    best, runner_up = ranked[0], ranked[1]
    net = points[best] - points[runner_up]
    if net == 0:
        return RoundResult(tuple(points), None, 0)
    return RoundResult(tuple(points), best, net)


def settle_game(
    winner: int, hand_points: tuple[int, ...], hands_won: tuple[int, ...], options: RuleOptions
) -> list[Settlement]:
    """Every two sides settle: each side's total is its hand points and a line bonus per
    hand (or round) won; the game's winner adds the game bonus, and the shutout bonus against a
    side that won nothing. The higher total scores the difference."""
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


def match_winner(
    match_scores: tuple[int, ...], game_winner: int, options: RuleOptions
) -> int | None:
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
