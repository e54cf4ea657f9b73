"""The strong level: it plays for its expected deadwood, guards what it throws, takes from
the pile only for a real gain, and knocks by a policy, showing the melds that leave the
opponent least to lay off.

Every judgement reads the seat's view alone (``card_memory``): the unseen cards it may draw,
the cards the opponent took from the pile (it melds around them) and the pile cards it threw
or passed over (it did not need them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from domain.cards import Card, Mask, cards_of, value_of
from domain.commands import BigGin, Command, DrawFromDiscard, DrawFromStock, PassUpcard, TakeUpcard
from domain.melds import min_deadwood
from domain.state import Phase
from domain.views import SeatView
from service.bots.actions import (
    between_hands,
    discard,
    discardable,
    first_of,
    knockable,
    require_a_move,
)
from service.bots.card_memory import CardMemory, read_view
from service.bots.hand_value import expected_deadwood
from service.bots.knocking import KnockPlan, KnockPolicy, best_knock
from service.bots.opponent_hands import FULL_STOCK
from service.bots.opponent_melds import Chances, holding_chances, usefulness


@dataclass(frozen=True, slots=True)
class Tuning:
    """The policy's weights, in points of deadwood."""

    danger: float = 6.0  # the cost of throwing a card the opponent surely melds
    take_margin: float = 1.0  # how much better the pile card must leave the hand
    stock_hope: float = 1.0  # how many turns' worth of gain a stock draw is credited with
    breadth: int = 12  # discards leaving more deadwood than the best by this are not weighed
    defence: float = 0.0  # weight of the deadwood held now, growing as the stock runs down
    knock: KnockPolicy = field(default_factory=KnockPolicy)


class StrongBot:
    def __init__(self, tuning: Tuning | None = None) -> None:
        self.tuning = tuning or Tuning()

    def choose(self, view: SeatView) -> Command:
        require_a_move(view)
        if view.phase is Phase.DISCARD:
            return self._end_turn(view)
        if view.phase in (Phase.OFFER, Phase.DRAW):
            return self._draw(view)
        return between_hands(view)

    def _draw(self, view: SeatView) -> Command:
        memory = read_view(view)
        take = first_of(view, TakeUpcard) or first_of(view, DrawFromDiscard)
        if take is not None and self._takes(memory):
            return take
        return first_of(view, PassUpcard) or DrawFromStock(seat=view.seat)

    def _takes(self, memory: CardMemory) -> bool:
        """Compare both draws one turn on: the pile card, kept, against a stock draw, assumed
        to help the next turn as much as it helps this one."""
        assert memory.top is not None
        hand, unseen = memory.hand, memory.unseen
        held = hand | 1 << memory.top
        kept = self._weighed(held, list(cards_of(hand)))
        after = min(expected_deadwood(held ^ 1 << card, unseen) for card in kept)
        drawn = expected_deadwood(hand, unseen)
        stock = drawn - self.tuning.stock_hope * (min_deadwood(hand) - drawn)
        return after + self.tuning.take_margin < stock

    def _end_turn(self, view: SeatView) -> Command:
        big_gin = first_of(view, BigGin)
        if big_gin is not None:
            return big_gin
        memory = read_view(view)
        chances = holding_chances(memory)
        knock_cards = knockable(view)
        if knock_cards:
            plan = best_knock(memory.hand, knock_cards, chances)
            return self._knock_or_discard(plan, view, memory, chances)
        useful = self._usefulness(view, memory, chances)
        return discard(view, self._best_discard(memory, discardable(view), useful))

    def _knock_or_discard(
        self, plan: KnockPlan, view: SeatView, memory: CardMemory, chances: Chances
    ) -> Command:
        if self.tuning.knock.knocks(plan, memory):
            return plan.command(view.seat)
        useful = self._usefulness(view, memory, chances)
        return discard(view, self._best_discard(memory, discardable(view), useful))

    def _usefulness(
        self, view: SeatView, memory: CardMemory, chances: Chances
    ) -> Callable[[Card], float]:
        """The chance that a discard would make a meld in the opponent's hand, by card."""
        return lambda card: usefulness(card, chances, memory.declined)

    def _best_discard(
        self, memory: CardMemory, allowed: list[Card], useful: Callable[[Card], float]
    ) -> Card:
        hand, danger = memory.hand, self.tuning.danger
        # The later in the hand, the likelier the opponent knocks before the next draw helps.
        defence = self.tuning.defence * max(0.0, 1.0 - memory.stock_size / FULL_STOCK)

        def cost(card: Card) -> tuple[float, int, int]:
            kept = expected_deadwood(hand ^ 1 << card, memory.unseen)
            if defence:
                kept += defence * min_deadwood(hand ^ 1 << card)
            return kept + danger * useful(card), -value_of(card), card

        return min(self._weighed(hand, allowed), key=cost)

    def _weighed(self, hand: Mask, allowed: list[Card]) -> list[Card]:
        left = {card: min_deadwood(hand ^ 1 << card) for card in allowed}
        floor = min(left.values())
        return [card for card in allowed if left[card] <= floor + self.tuning.breadth]
