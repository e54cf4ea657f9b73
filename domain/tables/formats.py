"""What sets the table sizes apart, in one place (docs/rules.md, "Three and four players"). The
way python-chess keeps each variant's differences as a few hooks over one board, a format says
who is on each side, who plays whom and who sits out each round, who deals the round after one
somebody won, and which side wins a match a seat gives up. All else is played alike. (Whether
a match is played by two seats at one hand or by tables at all is ``domain.match_rules``'.)

Three players: the dealer sits the hand out and deals it to the other two; of those, the
first after the dealer in seat order is dealt to first and offered the upcard first (the
two-player non-dealer), the second plays the two-player dealer's part. After a hand someone
won, its loser deals the next and sits it out.

Four players: partners sit opposite (seats 0 and 2 are team 0, seats 1 and 3 team 1). Each
round the dealing team's members deal at both tables. Opponents switch every round: odd
rounds pair seat 0 with 1 and 2 with 3, even rounds 0 with 3 and 2 with 1. The team that wins
a round deals the next (with ``next_dealer`` "alternate", the teams alternate).

At either size, after a round nobody won the same side deals again (``domain.tables.seating``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from domain.tables.state import TablesState


class TableFormat(ABC):
    players: ClassVar[int]
    side_by_seat: ClassVar[tuple[int, ...]]  # each match seat's side
    teams: ClassVar[tuple[tuple[int, ...], ...] | None]  # the partnerships, if any

    @property
    def sides(self) -> int:
        return max(self.side_by_seat) + 1

    @abstractmethod
    def round_tables(self, dealer_side: int, round_number: int) -> list[list[int]]:
        """Each table's two match seats, by table seat: [dealt to first, plays the dealer's
        part]."""

    @abstractmethod
    def sitting_out(self, dealer_side: int) -> int | None: ...

    @abstractmethod
    def next_dealer_side(self, state: TablesState, round_winner: int) -> int:
        """Who deals the round after the one ``round_winner`` just won."""

    @abstractmethod
    def conceded_to(self, state: TablesState, seat: int) -> int:
        """The side that wins the match when ``seat`` gives it up."""


class ThreePlayers(TableFormat):
    players = 3
    side_by_seat = (0, 1, 2)
    teams = None

    def round_tables(self, dealer_side: int, round_number: int) -> list[list[int]]:
        return [[(dealer_side + 1) % 3, (dealer_side + 2) % 3]]

    def sitting_out(self, dealer_side: int) -> int | None:
        return dealer_side

    def next_dealer_side(self, state: TablesState, round_winner: int) -> int:
        (loser,) = [seat for seat in state.table_seats[0] if seat != round_winner]
        return loser

    def conceded_to(self, state: TablesState, seat: int) -> int:
        """The other two players' standing decides: the higher match score; if equal, the
        higher hand points in the game in progress; if equal too, the lower seat."""

        def standing(other: int) -> tuple[int, int, int]:
            return (state.match_scores[other], state.hand_points[other], -other)

        return max((other for other in state.seats if other != seat), key=standing)


class FourPlayers(TableFormat):
    players = 4
    side_by_seat = (0, 1, 0, 1)
    teams = ((0, 2), (1, 3))

    def round_tables(self, dealer_side: int, round_number: int) -> list[list[int]]:
        pairs = [(0, 1), (2, 3)] if round_number % 2 == 1 else [(0, 3), (2, 1)]
        return [
            # The dealing team's member deals.
            [b, a] if self.side_by_seat[a] == dealer_side else [a, b]
            for a, b in pairs
        ]

    def sitting_out(self, dealer_side: int) -> int | None:
        return None

    def next_dealer_side(self, state: TablesState, round_winner: int) -> int:
        if state.options.next_dealer == "alternate":
            assert state.dealer_side is not None
            return 1 - state.dealer_side
        return round_winner

    def conceded_to(self, state: TablesState, seat: int) -> int:
        """The seat concedes for its team: the other team wins."""
        return 1 - self.side_by_seat[seat]


FORMATS: dict[int, TableFormat] = {kind.players: kind for kind in (ThreePlayers(), FourPlayers())}
