"""What a seat knows about where the cards are, read from its view alone.

A stateless read is enough, and survives a restart: every card this seat has seen this hand
is still in sight. A discard stays on the pile unless the next player takes it, and a card
taken from the pile is listed (``took_from_pile``) until it is discarded again. What the
view does not keep is the order of play, so who threw which pile card is unknown; but every
pile card was either thrown or passed over by the opponent (it had the chance to take each
one), except an upcard the opponent has not yet been offered.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.cards import FULL_DECK, Card, Mask, mask_of, parse_card, parse_cards
from domain.state import Phase
from domain.views import SeatView


@dataclass(frozen=True, slots=True)
class CardMemory:
    hand: Mask
    pile: Mask  # face up on the discard pile
    top: Card | None  # the pile's top card
    opponent_took: Mask  # taken from the pile by the opponent and still held by it
    declined: Mask  # pile cards the opponent threw or passed over
    unseen: Mask  # never seen this hand: the opponent's other cards and the stock
    opponent_unknown: int  # how many of the opponent's cards are among ``unseen``
    stock_size: int
    knock_limit: int

    @property
    def opponent_share(self) -> float:
        """The chance that a given unseen card is in the opponent's hand."""
        count = self.unseen.bit_count()
        return self.opponent_unknown / count if count else 0.0


def read_view(view: SeatView) -> CardMemory:
    hand = mask_of(parse_cards(view.hand))
    pile_cards = [parse_card(name) for name in view.discard_pile]
    pile = mask_of(pile_cards)
    opponent_took = mask_of(parse_cards(view.opponent_took))
    on_table = 0
    if view.knock is not None:
        on_table = mask_of(parse_card(name) for meld in view.knock.melds for name in meld)
        on_table |= mask_of(parse_cards(view.knock.deadwood))
    unseen = FULL_DECK & ~(hand | pile | opponent_took | on_table)
    not_yet_offered = view.phase is Phase.OFFER and view.upcard_passes == 0
    declined = pile & ~(1 << pile_cards[0]) if not_yet_offered and pile_cards else pile
    return CardMemory(
        hand=hand,
        pile=pile,
        top=pile_cards[-1] if pile_cards else None,
        opponent_took=opponent_took,
        declined=declined,
        unseen=unseen,
        opponent_unknown=view.opponent_card_count - opponent_took.bit_count(),
        stock_size=view.stock_size,
        knock_limit=view.knock_limit,
    )
