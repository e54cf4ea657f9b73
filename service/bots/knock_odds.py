"""What a knock is worth, played out exactly against sampled opponent hands: the defender's
deadwood after its best layoffs onto the melds shown, scored as the rules score it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.cards import Mask
from domain.melds import defender_result
from domain.options import RuleOptions
from service.bots.knocking import KnockPlan


@dataclass(frozen=True, slots=True)
class KnockOdds:
    value: float  # the knocker's mean points (negative: the defender's)
    undercut: float  # the share of hands that undercut it


def knock_odds(plan: KnockPlan, hands: Sequence[Mask], options: RuleOptions) -> KnockOdds:
    total, undercuts = 0.0, 0
    for hand in hands:
        defender = defender_result(hand, plan.melds, layoffs_allowed=True).count
        if defender > plan.deadwood:
            total += defender - plan.deadwood
        elif defender < plan.deadwood or options.undercut_on_tie:
            total -= plan.deadwood - defender + options.undercut_bonus
            undercuts += 1
    return KnockOdds(total / len(hands), undercuts / len(hands))
