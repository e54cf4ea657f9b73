"""Scripted three- and four-player matches for rule tests, in card notation.

The cut is made with a seed found to give the wanted first dealer; each table's hand is dealt
from a hand-written deck by the two-player engine's own deal, then every action goes through
``decide_tables`` and ``evolve_tables`` exactly as in play.

    match = format_match(3, dealer=2)        # seat 2 deals the first hand and sits it out
    match.deal(0, {0: "As 2s ...", 1: "..."}, upcard="Kc", stock="9d")
    match.pass_upcard(0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from domain.cards import card_name
from domain.commands import (
    Discard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    PassUpcard,
    SeatCommand,
    TakeUpcard,
)
from domain.events import GameWon, MatchWon, Scored
from domain.options import RuleOptions
from domain.rules_versions import CURRENT, RulesVersion
from domain.setup import dealt_from_deck
from domain.tables import (
    CutSeats,
    FormatEvent,
    FormatGameWon,
    StartFormatMatch,
    TableEvent,
    TablesState,
    decide_tables,
    evolve_tables,
    fold_tables,
)
from domain.tables.commands import FormatCommand
from domain.tables.events import Players
from domain.tables.seating import cut_for_dealer
from domain.tables.state import FormatPhase
from tests.unit.helpers import DEFENDER_5, DEFENDER_92, KNOCK_CARD, KNOCKER_MELDS, scripted_deck

_JUNK = "3h"


def cut_seed(players: int, dealer: int) -> str:
    """A seed whose cut gives ``dealer`` the lowest card."""
    for n in range(10_000):
        seed = f"{n:04x}"
        if cut_for_dealer(bytes.fromhex(seed), players)[1] == dealer:
            return seed
    raise AssertionError("no seed found")


class FormatMatch:
    def __init__(
        self,
        players: Players,
        options: RuleOptions | None = None,
        rules_version: RulesVersion = CURRENT,
    ) -> None:
        self.state = TablesState()
        self._plans: dict[int, Callable[[], list[FormatEvent]]] = {}
        self.events: list[FormatEvent] = []
        options = options or RuleOptions()
        self.do(StartFormatMatch(players=players, options=options, rules_version=rules_version))

    def do(self, command: FormatCommand) -> list[FormatEvent]:
        produced = decide_tables(self.state, command)
        for event in produced:
            self.state = evolve_tables(self.state, event)
        self.events += produced
        return produced

    def deal(self, table: int, hands: Mapping[int, str], upcard: str, stock: str = "") -> None:
        """Deal ``table`` from a scripted deck; ``hands`` by match seat."""
        assert self.state.phase is FormatPhase.DEAL, self.state.phase
        seated = self.state.tables[table]
        assert not seated.dealt
        assert set(hands) == set(seated.seats), seated.seats
        first, second = (hands[seat] for seat in seated.seats)
        deck = scripted_deck(seated.state.dealer or 0, first, second, upcard, stock)
        dealt = dealt_from_deck(seated.state, deck)
        event = TableEvent(table=table, seats=list(seated.seats), event=dealt)
        self.state = evolve_tables(self.state, event)
        self.events.append(event)

    def pass_upcard(self, seat: int) -> list[FormatEvent]:
        return self.do(PassUpcard(seat=seat))

    def take_upcard(self, seat: int) -> list[FormatEvent]:
        return self.do(TakeUpcard(seat=seat))

    def draw_stock(self, seat: int) -> list[FormatEvent]:
        return self.do(DrawFromStock(seat=seat))

    def discard(self, seat: int, card: str) -> list[FormatEvent]:
        return self.do(Discard(seat=seat, card=card))

    def knock(self, seat: int, card: str) -> list[FormatEvent]:
        return self.do(Knock(seat=seat, card=card))

    def finish_layoff(self, seat: int) -> list[FormatEvent]:
        return self.do(FinishLayoff(seat=seat))

    def seat_command(self, command: SeatCommand) -> list[FormatEvent]:
        return self.do(command)

    def replayed(self) -> TablesState:
        return fold_tables(self.events)

    def knock_hand(
        self, table: int, *, knocker: int, dead: str, defender: str = DEFENDER_5, upcard: str = "2c"
    ) -> list[FormatEvent]:
        """Deal ``table`` and play it at once (when no other table waits for its deal)."""
        self.deal_knock(table, knocker=knocker, dead=dead, defender=defender, upcard=upcard)
        return self.play(table)

    def deal_knock(
        self, table: int, *, knocker: int, dead: str, defender: str = DEFENDER_5, upcard: str = "2c"
    ) -> None:
        """Deal ``table`` so that ``knocker`` holds KNOCKER_MELDS and ``dead``, its opponent
        ``defender``; ``play`` then has both pass the upcard and the knocker draw KNOCK_CARD
        and knock with it."""
        seats = self.state.tables[table].seats
        (other,) = [seat for seat in seats if seat != knocker]
        stock = KNOCK_CARD if knocker == seats[0] else f"{_JUNK} {KNOCK_CARD}"
        self.deal(table, {knocker: f"{KNOCKER_MELDS} {dead}", other: defender}, upcard, stock)
        self._plans[table] = lambda: self._play_knock(seats, knocker)

    def deal_wall(self, table: int) -> None:
        """Deal ``table`` so that ``play`` takes it to the wall: both players draw from the
        stock and throw the card straight back until two cards are left."""
        seats = self.state.tables[table].seats
        self.deal(table, {seats[0]: DEFENDER_92, seats[1]: WALL_HAND}, upcard="2c")
        self._plans[table] = lambda: self._play_wall(table)

    def knock_round(self, *knocks: tuple[int, str]) -> list[FormatEvent]:
        """A four-player round: each table's (knocker, dead card) dealt, then played in turn."""
        for table, (knocker, dead) in enumerate(knocks):
            self.deal_knock(table, knocker=knocker, dead=dead)
        return [event for table in range(len(knocks)) for event in self.play(table)]

    def play(self, table: int) -> list[FormatEvent]:
        return self._plans.pop(table)()

    def _play_knock(self, seats: tuple[int, int], knocker: int) -> list[FormatEvent]:
        first, dealer = seats
        self.pass_upcard(first)
        self.pass_upcard(dealer)
        if knocker == dealer:
            self.draw_stock(first)
            self.discard(first, _JUNK)
        self.draw_stock(knocker)
        return self.knock(knocker, KNOCK_CARD)

    def _play_wall(self, table: int) -> list[FormatEvent]:
        seats = self.state.tables[table].seats
        self.pass_upcard(seats[0])
        self.pass_upcard(seats[1])
        produced: list[FormatEvent] = []
        turn = seats[0]
        hand = self.state.tables[table]
        while hand.state.stock_left > 2:
            drawn = hand.state.stock[hand.state.stock_next]
            self.draw_stock(turn)
            produced = self.discard(turn, card_name(drawn))
            turn = seats[1] if turn == seats[0] else seats[0]
            hand = self.state.tables[table]
        return produced

    def wall_hand(self, table: int) -> list[FormatEvent]:
        self.deal_wall(table)
        return self.play(table)


# With DEFENDER_92, two hands holding no meld; in ``wall_hand`` each drawn card is thrown
# straight back, so they never change and nobody goes out.
WALL_HAND = "As 3s 5s 7s Js 2d 4d 6d 8d Jh"


def format_match(
    players: Players,
    dealer: int,
    options: RuleOptions | None = None,
    rules_version: RulesVersion = CURRENT,
) -> FormatMatch:
    """A created match whose cut gave ``dealer`` the lowest card: its first table waits for
    the deal."""
    match = FormatMatch(players, options, rules_version)
    match.do(CutSeats(seed=cut_seed(players, dealer)))
    return match


def assert_the_round_ended_the_game(match: FormatMatch) -> None:
    """A table's hand was scored, and the game ended with the round: none inside a table."""
    inner = [e.event for e in match.events if isinstance(e, TableEvent)]
    assert any(isinstance(e, Scored) for e in inner)
    assert not any(isinstance(e, (GameWon, MatchWon)) for e in inner)
    assert any(isinstance(e, FormatGameWon) for e in match.events)
