"""The cut for the first deal, and who deals after a round (who plays whom and who sits out
is each format's: ``domain.tables.formats``).
"""

from __future__ import annotations

import hashlib

from domain.cards import DECK_SIZE, rank_of
from domain.shuffle import shuffled_deck
from domain.tables.state import TablesState


def next_dealer_side(state: TablesState, round_winner: int | None) -> int:
    """Who deals the round after the one just scored."""
    dealer = state.dealer_side
    assert dealer is not None
    if round_winner is None:  # the same side deals again
        return dealer
    return state.format.next_dealer_side(state, round_winner)


def cut_for_dealer(seed: bytes, players: int) -> tuple[list[list[int]], int]:
    """Every seat cuts a card, one round after another from ``shuffled_deck(seed)`` (seat 0
    takes deck[0], seat 1 deck[1], ...), until one seat alone holds the lowest rank; should a
    deck run out, the cut goes on with the deck of ``SHA-256(seed)``. The rounds, and the seat
    that cut lowest."""
    rounds: list[list[int]] = []
    while True:
        deck = shuffled_deck(seed)
        for start in range(0, DECK_SIZE - players + 1, players):
            cards = deck[start : start + players]
            rounds.append(cards)
            ranks = [rank_of(card) for card in cards]
            lowest = min(ranks)
            if ranks.count(lowest) == 1:
                return rounds, ranks.index(lowest)
        seed = hashlib.sha256(seed).digest()
