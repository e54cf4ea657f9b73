"""Who plays whom, who sits out and who deals: RULES.md "Three and four players".

Three players: the dealer sits the hand out and deals it to the other two; of those, the
first after the dealer in seat order is dealt to first and offered the upcard first (the
two-player non-dealer), the second plays the two-player dealer's part. After a hand someone
won, its loser deals the next and sits it out; after a hand nobody won, the same dealer deals
the same two again.

Four players: each round the dealing team's members deal at both tables. Opponents switch
every round: odd rounds pair seat 0 with 1 and 2 with 3, even rounds 0 with 3 and 2 with 1.
The team that wins a round deals the next (with ``next_dealer`` "alternate", the teams
alternate); after a round nobody won, the same team deals again.
"""

from __future__ import annotations

import hashlib

from domain.cards import DECK_SIZE, rank_of
from domain.shuffle import shuffled_deck
from domain.tables.state import TablesState, team_of


def round_tables(players: int, dealer_side: int, round_number: int) -> list[list[int]]:
    """Each table's two match seats, by table seat: [dealt to first, plays the dealer's part]."""
    if players == 3:
        return [[(dealer_side + 1) % 3, (dealer_side + 2) % 3]]
    pairs = [(0, 1), (2, 3)] if round_number % 2 == 1 else [(0, 3), (2, 1)]
    return [
        [b, a] if team_of(a) == dealer_side else [a, b]  # the dealing team's member deals
        for a, b in pairs
    ]


def sitting_out(players: int, dealer_side: int) -> int | None:
    return dealer_side if players == 3 else None


def next_dealer_side(state: TablesState, round_winner: int | None) -> int:
    """Who deals the round after the one just scored."""
    dealer = state.dealer_side
    assert dealer is not None
    if round_winner is None:
        return dealer
    if state.players == 3:
        table = state.tables[0]
        (loser,) = [seat for seat in table.seats if seat != round_winner]
        return loser
    if state.options.next_dealer == "alternate":
        return 1 - dealer
    return round_winner


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
