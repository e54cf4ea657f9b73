"""Knocking well: which card to knock with and which melds to show, and whether to knock.

The arrangement shown decides what the defender may lay off, so among the ways to knock the
plan keeps the deadwood plus the layoffs the opponent is expected to make lowest.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import Card, Mask, card_name, cards_of, names
from domain.commands import Knock
from domain.melds import best_arrangements
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
    gin_hunt_deadwood: int = 0  # hold a knock this low for gin...
    gin_hunt_stock: int = 99  # ...while the stock holds at least this many cards
    short_stock: int = 0  # knock at once at or below this stock size
    wary_deadwood: int = 99  # at or above this deadwood, knock only if the opponent is slow
    wary_stock: int = 0  # the opponent is slow while the stock holds at least this many

    def knocks(self, plan: KnockPlan, memory: CardMemory) -> bool:
        if plan.deadwood == 0 or memory.stock_size <= self.short_stock:
            return True
        pressed = memory.opponent_took.bit_count() >= 2
        if plan.deadwood <= self.gin_hunt_deadwood and memory.stock_size >= self.gin_hunt_stock:
            return pressed
        if plan.deadwood >= self.wary_deadwood:
            return memory.stock_size >= self.wary_stock
        return True
