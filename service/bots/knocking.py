"""Knocking well: which card to knock with and which melds to show, and whether to knock.

The arrangement shown decides what the defender may lay off, so among the ways to knock the
plan keeps the deadwood plus the layoffs the opponent is expected to make lowest.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card, Mask, card_name, cards_of, names
from domain.commands import Knock
from domain.melds import best_arrangements
from domain.turns import WALL
from service.bots.card_memory import CardMemory
from service.bots.opponent_melds import Chances, expected_layoffs


@dataclass(frozen=True, slots=True)
class KnockPlan:
    card: Card  # put face down
    melds: tuple[Mask, ...]
    deadwood: int
    layoffs: float  # the deadwood the opponent is expected to lay off

    def command(self, seat: int) -> Knock:
        return Knock(
            seat=seat,
            card=card_name(self.card),
            melds=[names(cards_of(meld)) for meld in self.melds],
        )


def best_knock(hand: Mask, knock_cards: list[Card], chances: Chances) -> KnockPlan:
    plans = []
    for card in knock_cards:
        for arrangement in best_arrangements(hand ^ 1 << card):
            layoffs = expected_layoffs(arrangement.melds, chances) if arrangement.count else 0.0
            plans.append(KnockPlan(card, arrangement.melds, arrangement.count, layoffs))
    return min(plans, key=lambda plan: (plan.deadwood + plan.layoffs, plan.deadwood, plan.card))


@dataclass(frozen=True, slots=True)
class KnockPolicy:
    """When to knock; each rule earned its place in ``bench.bots`` against the simple level.

    Early, an opponent is far from going out: a knock wins big, and a hand one or two cards
    from gin is worth playing on (the gin bonus, and nothing laid off) unless the opponent is
    collecting pile cards. Later its deadwood is low enough that a knock whose deadwood plus
    expected layoffs is high risks an undercut, so such a hand plays on for a better knock,
    until the wall: there a discard ends the hand with nothing scored, and the knock is worth
    its risk.
    """

    gin_hunt_deadwood: int = 4  # with this little deadwood, play on for gin...
    gin_hunt_stock: int = 18  # ...while the stock holds at least this many cards...
    pressed_takes: int = 2  # ...unless the opponent holds this many cards from the pile
    wary_stock: int = 16  # below this stock size, knock only when...
    wary_risk: float = 8.0  # ...deadwood plus expected layoffs is below this...
    wall: int = WALL  # ...or the stock is down to the cards that are never drawn

    def knocks(self, plan: KnockPlan, memory: CardMemory) -> bool:
        if self.must_knock(plan, memory):
            return True
        if self.hunts_gin(plan, memory):
            return False
        if memory.stock_size < self.wary_stock:
            return plan.deadwood + plan.layoffs < self.wary_risk
        return True

    def must_knock(self, plan: KnockPlan, memory: CardMemory) -> bool:
        """Gin, or the wall: nothing is worth more."""
        return plan.deadwood == 0 or memory.stock_size <= self.wall

    def hunts_gin(self, plan: KnockPlan, memory: CardMemory) -> bool:
        """Plays on for gin: little deadwood, early, and the opponent not collecting."""
        return (
            plan.deadwood <= self.gin_hunt_deadwood
            and memory.stock_size >= self.gin_hunt_stock
            and memory.opponent_took.bit_count() < self.pressed_takes
        )
