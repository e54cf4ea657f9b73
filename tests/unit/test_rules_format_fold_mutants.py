"""Three- and four-player play as the fold keeps it: each table's hand apart from its match
seats, whose turn it is written out by every event, the listed commands translated by their
identity. Each test pins a rule a change to that bookkeeping could break unseen by the others
(found by mutation testing: ``python3 dev.py mutate``)."""

from __future__ import annotations

import pytest

from domain.commands import PassUpcard
from domain.events import UpcardPassed
from domain.tables import TableEvent, decide_tables, tables_legal_actions, tables_public_view
from domain.tables.events import Players
from domain.tables.state import FormatPhase
from tests.unit.format_helpers import FormatMatch, format_match
from tests.unit.helpers import DEFENDER_92, KNOCKER_MELDS

# The first dealer whose first round seats the last match seat at table seat 1 of the last
# table: the dealer's part, offered the upcard second.
_DEALER: dict[int, int] = {3: 0, 4: 3}


def offered_to_the_last_seat(players: Players) -> FormatMatch:
    """Every table dealt and the first seat at each passed the upcard: the last match seat is
    to play (the upcard is offered to it) at table seat 1 of the last table."""
    match = format_match(players, dealer=_DEALER[players])
    for table, (first, second) in enumerate(match.state.table_seats):
        match.deal(table, {first: f"{KNOCKER_MELDS} Ac", second: DEFENDER_92}, upcard="2c")
    for first, _ in match.state.table_seats:
        match.pass_upcard(first)
    assert match.state.phase is FormatPhase.PLAY
    assert match.state.table_seats[-1][1] == players - 1
    assert players - 1 in match.state.turns
    return match


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_outside_the_match_is_listed_no_actions(players: Players) -> None:
    # Seat numbers run from 0 to players - 1: one past the end, or -1 (which would index the
    # last seat's place from the end), is nobody's seat, so it may do nothing, and asking
    # is not an error.
    match = offered_to_the_last_seat(players)
    assert tables_legal_actions(match.state, players - 1)  # the last seat is to play
    assert tables_legal_actions(match.state, players) == []
    assert tables_legal_actions(match.state, -1) == []
    assert tables_legal_actions(match.state, players + 1) == []


@pytest.mark.parametrize("players", [3, 4])
def test_a_listed_command_played_as_listed_is_the_seat_s_move_at_its_table(
    players: Players,
) -> None:
    # The page and the bots send back the very command objects the match lists; each goes to
    # the two-player hand carrying the seat's table seat, and the event names the match seats.
    match = offered_to_the_last_seat(players)
    seat = players - 1
    (listed,) = [c for c in tables_legal_actions(match.state, seat) if type(c) is PassUpcard]
    assert listed.seat == seat
    produced = decide_tables(match.state, listed)
    table = len(match.state.table_seats) - 1
    assert produced == [
        TableEvent(table=table, seats=list(match.state.table_seats[table]), event=UpcardPassed(1))
    ]
    match.seat_command(listed)
    # The upcard was passed by both: the first seat at that table draws next.
    assert match.state.turns[-1] == match.state.table_seats[table][0]


@pytest.mark.parametrize("players", [3, 4])
def test_a_view_s_turns_are_its_own_to_change(players: Players) -> None:
    # A view is handed to callers that may build on it: changing its list of turns must not
    # change whose turn the match state says it is.
    match = offered_to_the_last_seat(players)
    turns = list(match.state.turns)
    view = tables_public_view(match.state)
    assert view.turns == turns
    view.turns.append(0)
    assert match.state.turns == turns
    assert tables_public_view(match.state).turns == turns


@pytest.mark.parametrize("players", [3, 4])
def test_nobody_is_to_play_before_the_cut_or_while_the_hands_wait_for_their_deal(
    players: Players,
) -> None:
    # The system cuts for the first dealer and deals each table: until a table's hand is
    # dealt, no seat is expected to act, and a view says so.
    match = FormatMatch(players)
    assert match.state.phase is FormatPhase.CUT
    assert match.state.turns == []
    assert tables_public_view(match.state).turns == []
    match = format_match(players, dealer=_DEALER[players])
    assert match.state.phase is FormatPhase.DEAL
    assert match.state.turns == []
    assert tables_public_view(match.state).turns == []
    assert all(tables_legal_actions(match.state, seat) == [] for seat in range(players))
