"""Scripted matches for rule tests: hands in card notation, one line per action.

A scripted hand is dealt from a hand-written deck (``dealt_from_deck``, the engine's own deal)
and folded like any other event, so no seed is involved; every action then goes through
``decide`` and ``evolve`` exactly as in play.

    table = deal(seat0="As 2s 3s ...", seat1="...", upcard="Kc", stock="9d 4h", dealer=1)
    table.pass_upcard(0)
    table.take_upcard(1)
    table.discard(1, "Kd")
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from hypothesis import settings

from domain.cards import DECK_SIZE, Card, parse_cards
from domain.commands import (
    BigGin,
    ChooseDealer,
    Command,
    Cut,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    PassUpcard,
    StartMatch,
    TakeUpcard,
)
from domain.decide import decide
from domain.events import Event, Scored
from domain.evolve import evolve, fold
from domain.options import RuleOptions
from domain.setup import dealt_from_deck
from domain.state import MatchState, Phase, new_match

# Any seed whose cut is decided by the first pair will do; the winner is read from the event.
CUT_SEED = "00"


class Table:
    """A match in progress, with every event it produced."""

    def __init__(self, state: MatchState, events: list[Event]) -> None:
        self.state = state
        self.events = events

    def do(self, command: Command) -> list[Event]:
        produced = decide(self.state, command)
        for event in produced:
            self.state = evolve(self.state, event)
        self.events += produced
        return produced

    def take_upcard(self, seat: int) -> list[Event]:
        return self.do(TakeUpcard(seat=seat))

    def pass_upcard(self, seat: int) -> list[Event]:
        return self.do(PassUpcard(seat=seat))

    def draw_stock(self, seat: int) -> list[Event]:
        return self.do(DrawFromStock(seat=seat))

    def draw_pile(self, seat: int) -> list[Event]:
        return self.do(DrawFromDiscard(seat=seat))

    def discard(self, seat: int, card: str) -> list[Event]:
        return self.do(Discard(seat=seat, card=card))

    def knock(self, seat: int, card: str, melds: Sequence[str] | None = None) -> list[Event]:
        chosen = None if melds is None else [meld.split() for meld in melds]
        return self.do(Knock(seat=seat, card=card, melds=chosen))

    def big_gin(self, seat: int, melds: Sequence[str] | None = None) -> list[Event]:
        chosen = None if melds is None else [meld.split() for meld in melds]
        return self.do(BigGin(seat=seat, melds=chosen))

    def lay_off(self, seat: int, card: str, meld: int) -> list[Event]:
        return self.do(LayOff(seat=seat, card=card, meld=meld))

    def finish_layoff(self, seat: int) -> list[Event]:
        return self.do(FinishLayoff(seat=seat))

    def deal(
        self, *, seat0: str, seat1: str, upcard: str, stock: str = "", dealer: int | None = None
    ) -> Table:
        """Deal the next hand from a scripted deck (the dealer is the one the rules chose,
        which ``dealer``, if given, must agree with)."""
        assert self.state.phase is Phase.DEAL, self.state.phase
        if dealer is not None:
            assert self.state.dealer == dealer, f"seat {self.state.dealer} deals, not {dealer}"
        assert self.state.dealer is not None
        deck = scripted_deck(self.state.dealer, seat0, seat1, upcard, stock)
        dealt = dealt_from_deck(self.state, deck)
        self.state = evolve(self.state, dealt)
        self.events.append(dealt)
        return self

    def replayed(self) -> MatchState:
        return fold(self.events)


def scripted_deck(dealer: int, seat0: str, seat1: str, upcard: str, stock: str) -> list[Card]:
    """The deck that deals these hands: the named stock cards are drawn first, then the rest
    of the deck in card order."""
    hands = (parse_cards(seat0), parse_cards(seat1))
    assert len(hands[0]) == len(hands[1]) == 10, "each player is dealt ten cards"
    first, second = hands[1 - dealer], hands[dealer]
    top = [card for pair in zip(first, second, strict=True) for card in pair]
    top += parse_cards(upcard) + parse_cards(stock)
    assert len(set(top)) == len(top), "a card is dealt twice"
    return top + [card for card in range(DECK_SIZE) if card not in set(top)]


def created(options: RuleOptions | None = None) -> Table:
    """A created match, waiting for the cut."""
    table = Table(new_match(), [])
    table.do(StartMatch(options=options or RuleOptions()))
    return table


def new_table(options: RuleOptions | None = None, dealer: int = 0) -> Table:
    """A created match whose first dealer is chosen: the next step is a deal."""
    table = created(options)
    table.do(Cut(seed=CUT_SEED))
    assert table.state.turn is not None
    table.do(ChooseDealer(seat=table.state.turn, dealer=dealer))
    return table


def deal(
    *,
    seat0: str,
    seat1: str,
    upcard: str,
    stock: str = "",
    dealer: int = 0,
    options: RuleOptions | None = None,
) -> Table:
    """A new match at its first hand, dealt as scripted."""
    return new_table(options, dealer).deal(seat0=seat0, seat1=seat1, upcard=upcard, stock=stock)


def cards(text: str) -> list[str]:
    """Notation split into a list, as events and views hold it (sorted by card order)."""
    return [name for _, name in sorted((parse_cards([n])[0], n) for n in text.split())]


# A knocker's nine melded cards, and defender hands none of whose cards fits those melds
# (nothing of 4s 8s, Js, Ad 5d). The knocker's tenth card sets the deadwood: "Ac" 1, "5c" 5,
# "9c" 9, or "5d" (which joins 2d 3d 4d) for gin.
KNOCKER_MELDS = "5s 6s 7s Jc Jd Jh 2d 3d 4d"
DEFENDER_5 = "6c 7c 8c 8h 9h Th Qc Qd Qs 5h"  # three melds and 5h: deadwood 5
DEFENDER_92 = "Kc Kh Qc Qh 9h Tc 8c 6c Td 9s"  # no meld: deadwood 92
KNOCK_CARD = "Ks"  # drawn from the stock by the knocker, and knocked with
_JUNK = "3h"  # drawn and thrown back by the non-dealer when the dealer is to knock


def knock_hand(
    table: Table,
    *,
    knocker: int,
    dead: str,
    defender: str = DEFENDER_5,
    upcard: str = "2c",
    melds: Sequence[str] | None = None,
) -> list[Event]:
    """Deal the next hand so that ``knocker`` holds KNOCKER_MELDS and ``dead``; both pass the
    upcard, the knocker draws KNOCK_CARD from the stock and knocks with it. The events of the
    knock are returned."""
    dealer = table.state.dealer
    assert dealer is not None
    hands = {knocker: f"{KNOCKER_MELDS} {dead}", 1 - knocker: defender}
    stock = KNOCK_CARD if knocker != dealer else f"{_JUNK} {KNOCK_CARD}"
    table.deal(seat0=hands[0], seat1=hands[1], upcard=upcard, stock=stock)
    table.pass_upcard(1 - dealer)
    table.pass_upcard(dealer)
    if knocker == dealer:
        table.draw_stock(1 - dealer)
        table.discard(1 - dealer, _JUNK)
    table.draw_stock(knocker)
    return table.knock(knocker, KNOCK_CARD, melds)


def scored_in(events: Sequence[Event]) -> Scored:
    (scored,) = [event for event in events if isinstance(event, Scored)]
    return scored


def examples(count: int, *, under_mutation: int | None = None) -> int:
    """A property test's example count under the loaded hypothesis profile: ``count`` under
    the project's (hypothesis' default of 100 examples); under ``mutation`` a quarter, or
    ``under_mutation`` where each example is costly (a whole match), as ``dev.py mutate``
    runs the property tests again for every mutant that survives the named tests."""
    loaded = settings.default
    assert loaded is not None  # tests/conftest.py loads a profile
    if under_mutation is not None and os.environ.get("HYPOTHESIS_PROFILE") == "mutation":
        return under_mutation
    return max(1, count * loaded.max_examples // 100)
