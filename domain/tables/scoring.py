"""The arithmetic of RULES.md "Three and four players": a round's result (a game's settlement
between every two sides, and the match's winner, are ``domain.scoring``'s at every table
size). No flow of play."""

from __future__ import annotations

from typing import NamedTuple

from domain.events import HandDrawn, Scored
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
