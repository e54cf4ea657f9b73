"""Refusals: malformed commands and illegal ones are different errors, each a plain sentence,
and none names a card the asking seat may not know."""

from __future__ import annotations

from typing import Any

import pytest

from domain.cards import CARD_NAMES
from domain.commands import (
    ChooseDealer,
    Cut,
    Deal,
    Discard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    StartMatch,
    decode_command,
)
from domain.decide import decide
from domain.errors import (
    DomainError,
    IllegalMove,
    InvalidCommand,
    InvalidNotation,
    MatchOver,
    NotYourTurn,
)
from domain.state import new_match
from tests.unit.helpers import Table, created, deal

SEAT0 = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"
SEAT1 = "2c 3c 4c 7d 8d 9h Th Jh Kc Ks"


def drawing() -> Table:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8s Jd", dealer=1)
    table.pass_upcard(0)
    table.pass_upcard(1)
    return table


def test_malformed_and_illegal_are_different_errors() -> None:
    assert not issubclass(InvalidCommand, IllegalMove)
    assert not issubclass(IllegalMove, InvalidCommand)
    assert issubclass(NotYourTurn, IllegalMove)
    assert issubclass(MatchOver, IllegalMove)
    assert issubclass(InvalidNotation, InvalidCommand)


def test_it_is_not_your_turn() -> None:
    table = drawing()
    with pytest.raises(NotYourTurn, match=r"^it is not your turn"):
        table.draw_stock(1)


@pytest.mark.parametrize("card", ["7x", "", "11h", "Sj"])
def test_bad_notation_is_malformed(card: str) -> None:
    table = drawing()
    table.draw_stock(0)
    with pytest.raises(InvalidNotation, match="is not a card"):
        table.discard(0, card)


@pytest.mark.parametrize("seat", [2, -1, "0", None, True])
def test_a_seat_other_than_0_or_1_is_malformed(seat: Any) -> None:
    table = drawing()
    with pytest.raises(InvalidCommand, match="seat must be 0 or 1"):
        table.do(DrawFromStock(seat=seat))


def test_malformed_is_reported_before_illegal() -> None:
    table = drawing()
    with pytest.raises(InvalidNotation):
        table.discard(1, "Zz")  # also not seat 1's turn


def test_discarding_a_card_you_do_not_hold() -> None:
    table = drawing()
    table.draw_stock(0)
    with pytest.raises(IllegalMove, match=r"^you do not hold Ks$"):
        table.discard(0, "Ks")


def test_no_refusal_names_a_card_the_seat_may_not_know() -> None:
    table = drawing()
    table.draw_stock(0)
    hidden = set(SEAT1.split()) | {CARD_NAMES[c] for c in table.state.stock[1:]}
    attempts: list[Discard | Knock] = [Discard(seat=0, card=name) for name in CARD_NAMES]
    attempts += [Knock(seat=0, card=name) for name in CARD_NAMES]
    attempts += [Discard(seat=1, card=name) for name in SEAT1.split()]
    leaks = []
    for command in attempts:
        try:
            decide(table.state, command)
        except DomainError as error:
            named = {name for name in hidden if name in str(error)} - {command.card}
            leaks += [(command, str(error))] if named else []
    assert leaks == []


def test_commands_out_of_phase_say_what_the_match_waits_for() -> None:
    table = drawing()
    with pytest.raises(IllegalMove, match=r"^cannot deal now: both passed the upcard, so seat 0"):
        table.do(Deal(seed="00"))
    with pytest.raises(
        IllegalMove, match=r"cannot lay off now: .* so you must draw from the stock"
    ):
        table.do(LayOff(seat=0, card="As", meld=0))
    with pytest.raises(IllegalMove, match="cannot finish laying off now"):
        table.do(FinishLayoff(seat=0))
    with pytest.raises(IllegalMove, match="cannot cut"):
        table.do(Cut(seed="00"))
    with pytest.raises(IllegalMove, match="cannot create the match"):
        table.do(StartMatch())


def test_commands_before_the_match_exists() -> None:
    with pytest.raises(IllegalMove, match="not been created"):
        decide(new_match(), Cut(seed="00"))
    with pytest.raises(IllegalMove, match="not been created"):
        decide(new_match(), DrawFromStock(seat=0))


def test_choosing_a_dealer_that_is_not_a_seat_is_malformed() -> None:
    table = created()
    table.do(Cut(seed="00"))
    assert table.state.turn is not None
    with pytest.raises(InvalidCommand, match="dealer must be seat 0 or seat 1"):
        table.do(ChooseDealer(seat=table.state.turn, dealer=3))


@pytest.mark.parametrize(
    "data",
    [
        b"{",
        b'{"type":"discard","seat":0}',
        b'{"type":"dance","seat":0}',
        b'{"type":"discard","seat":"zero","card":"7h"}',
    ],
)
def test_undecodable_commands_are_malformed(data: bytes) -> None:
    with pytest.raises(InvalidCommand):
        decode_command(data)


def test_commands_decode_from_json() -> None:
    assert decode_command(b'{"type":"discard","seat":1,"card":"7h"}') == Discard(seat=1, card="7h")
    knock = decode_command(b'{"type":"knock","seat":0,"card":"Kd","melds":[["As","2s","3s"]]}')
    assert knock == Knock(seat=0, card="Kd", melds=[["As", "2s", "3s"]])


def test_melds_that_are_not_lists_of_cards_are_malformed() -> None:
    table = drawing()
    table.draw_stock(0)
    with pytest.raises(InvalidCommand, match="melds must be a list of lists"):
        table.do(Knock(seat=0, card="Kd", melds="As 2s 3s"))  # type: ignore[arg-type]
    with pytest.raises(InvalidNotation):
        table.do(Knock(seat=0, card="Kd", melds=[["As", "2s", "3x"]]))
