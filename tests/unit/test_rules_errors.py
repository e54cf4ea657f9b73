"""Refusals: malformed commands and illegal ones are different errors, each a plain sentence,
and none names a card the asking seat may not know."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.cards import CARD_NAMES, cards_of, names
from domain.commands import (
    BigGin,
    ChooseDealer,
    Command,
    Cut,
    Deal,
    Discard,
    DrawFromDiscard,
    DrawFromStock,
    FinishLayoff,
    Knock,
    LayOff,
    PassUpcard,
    Resign,
    StartMatch,
    TakeUpcard,
    decode_command,
    encode_command,
)
from domain.decide import decide
from domain.errors import (
    DomainError,
    IllegalMove,
    InvalidCommand,
    InvalidNotation,
    InvalidOptions,
    MatchOver,
    NotYourTurn,
)
from domain.legal import legal_actions
from domain.state import new_match
from domain.tables import CutSeats, decode_tables_command
from tests.unit.helpers import Table, created, deal, knock_hand, new_table

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
    assert decode_command(encode_command(knock)) == knock


def test_three_and_four_player_commands_decode_from_json_and_refuse_the_malformed() -> None:
    assert decode_tables_command(b'{"type":"pass_upcard","seat":3}') == PassUpcard(seat=3)
    assert decode_tables_command('{"type":"cut_seats","seed":"00"}') == CutSeats(seed="00")
    with pytest.raises(InvalidCommand) as refused:
        decode_tables_command(b'{"type":"cut_seats"}')
    assert str(refused.value) == ("the command is malformed: Object missing required field `seed`")
    with pytest.raises(InvalidCommand) as refused:
        decode_tables_command(b"{")
    assert str(refused.value).startswith("the command is malformed: ")


def test_melds_that_are_not_lists_of_cards_are_malformed() -> None:
    table = drawing()
    table.draw_stock(0)
    with pytest.raises(InvalidCommand, match="melds must be a list of lists"):
        table.do(Knock(seat=0, card="Kd", melds="As 2s 3s"))  # type: ignore[arg-type]
    with pytest.raises(InvalidNotation):
        table.do(Knock(seat=0, card="Kd", melds=[["As", "2s", "3x"]]))


def offered() -> Table:
    """Seat 0 (not dealing) is offered the upcard 5c."""
    return deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8s Jd", dealer=1)


def laying_off() -> Table:
    """Seat 0 knocked with 5s 6s 7s, Jc Jd Jh, 2d 3d 4d (melds 0 to 2) and Ac; seat 1 holds
    8s, which fits the spade run, and may lay it off."""
    table = new_table(dealer=1)
    knock_hand(table, knocker=0, dead="Ac", defender="8s 2h 4c 6h 8c Tc Kh Qc 9h 9c")
    return table


def spade_run(table: Table) -> int:
    assert table.state.knock is not None
    return [names(cards_of(meld)) for meld in table.state.knock.melds].index(["5s", "6s", "7s"])


def refusal(table: Table, command: Command) -> DomainError:
    with pytest.raises(DomainError) as caught:
        table.do(command)
    return caught.value


# A refusal's sentence is the problem `detail` a client shows its player: the card and the
# rule are named, word for word.
@pytest.mark.parametrize(
    ("make", "command", "kind", "sentence"),
    [
        (offered, Discard(seat=0, card="7x"), InvalidNotation, "'7x' is not a card"),
        (offered, DrawFromStock(seat=2), InvalidCommand, "seat must be 0 or 1"),
        (offered, DrawFromDiscard(seat=1), NotYourTurn, "it is not your turn: seat 0 is to play"),
        (offered, DrawFromDiscard(seat=0), IllegalMove, "take or pass the upcard first"),
        (
            offered,
            DrawFromStock(seat=0),
            IllegalMove,
            "the upcard is offered to you: take it or pass",
        ),
        (
            drawing,
            TakeUpcard(seat=0),
            IllegalMove,
            "both players passed the upcard: draw from the stock",
        ),
        (
            drawing,
            PassUpcard(seat=0),
            IllegalMove,
            "both players passed the upcard: draw from the stock",
        ),
        (
            drawing,
            DrawFromDiscard(seat=0),
            IllegalMove,
            "both players passed the upcard: draw from the stock",
        ),
        (
            laying_off,
            TakeUpcard(seat=1),
            IllegalMove,
            "you cannot take the upcard now: you must lay off onto the knocker's melds or "
            "finish laying off",
        ),
        (
            laying_off,
            PassUpcard(seat=1),
            IllegalMove,
            "you cannot pass the upcard now: you must lay off onto the knocker's melds or "
            "finish laying off",
        ),
        (
            laying_off,
            DrawFromDiscard(seat=1),
            IllegalMove,
            "you cannot draw now: you must lay off onto the knocker's melds or finish laying off",
        ),
        (
            laying_off,
            LayOff(seat=1, card="8s", meld=-1),
            InvalidCommand,
            "meld must be the number of one of the knocker's melds, from 0",
        ),
        (
            laying_off,
            LayOff(seat=1, card="8s", meld=3),
            IllegalMove,
            "the knocker has no meld 3: the melds are numbered 0 to 2",
        ),
    ],
)
def test_each_refusal_names_the_cards_and_the_rule(
    make: Callable[[], Table], command: Command, kind: type[DomainError], sentence: str
) -> None:
    error = refusal(make(), command)
    assert (type(error), str(error)) == (kind, sentence) or (
        kind is InvalidNotation and type(error) is kind and str(error).startswith(sentence)
    )


def test_a_card_that_does_not_fit_is_refused_naming_the_card_and_the_meld() -> None:
    table = laying_off()
    wrong = (spade_run(table) + 1) % 3
    assert table.state.knock is not None
    meld = " ".join(names(cards_of(table.state.knock.melds[wrong])))
    error = refusal(table, LayOff(seat=1, card="8s", meld=wrong))
    assert (type(error), str(error)) == (
        IllegalMove,
        f"8s does not fit the knocker's meld {wrong} ({meld})",
    )


@pytest.mark.parametrize(
    ("melds", "sentence"),
    [
        ([[]], "that group of cards is not a meld"),
        ([["As"]], "As is not a meld"),
        ([["Qh", "As", "2s"]], "As 2s Qh is not a meld"),
        ([["Kd", "As", "2s"]], "Kd is your knock card and cannot be in a meld"),
        ([["As", "2s", "3s"], ["3s", "4h", "5h"]], "3s 4h 5h is not a meld"),
        ([["7c", "8c", "9c", "Tc"]], "Tc is not in the hand"),
        ([["As", "2s", "3s"], ["2s", "3s", "4s"]], "4s is not in the hand"),
    ],
)
def test_named_melds_are_refused_naming_the_cards(melds: list[list[str]], sentence: str) -> None:
    table = drawing()
    table.draw_stock(0)
    error = refusal(table, Knock(seat=0, card="Kd", melds=melds))
    assert type(error) is IllegalMove
    assert str(error).startswith(sentence)


def test_a_command_that_is_not_json_or_not_a_command_is_refused_saying_which() -> None:
    with pytest.raises(InvalidCommand) as not_json:
        decode_command(b"{")
    assert str(not_json.value) == "the command is not valid JSON: Input data was truncated"
    with pytest.raises(InvalidCommand) as unknown:
        decode_command(b'{"type":"dance","seat":0}')
    assert str(unknown.value) == "the command is malformed: Invalid value 'dance' - at `$.type`"


def test_the_system_actions_are_the_start_the_cut_and_the_deal_with_the_seed_left_blank() -> None:
    table = created()
    assert legal_actions(table.state, None) == [Cut(seed="")]
    table = new_table(dealer=1)
    assert legal_actions(table.state, None) == [Deal(seed="")]
    assert legal_actions(new_match(), None) == [StartMatch()]
    assert legal_actions(drawing().state, None) == []


def test_refusals_before_the_first_deal_name_the_rule_word_for_word() -> None:
    blank = Table(new_match(), [])
    unknown_options = StartMatch(options=None)  # type: ignore[arg-type]
    cases: list[tuple[Table, Command, type[DomainError], str]] = [
        (blank, unknown_options, InvalidOptions, "options must be a set of rule options"),
        (blank, Resign(seat=0), IllegalMove, "you cannot resign a match that has not been created"),
        (
            created(),
            ChooseDealer(seat=0, dealer=2),
            InvalidCommand,
            "the dealer must be seat 0 or seat 1",
        ),
        (
            created(),
            ChooseDealer(seat=0, dealer=1),
            IllegalMove,
            "you cannot choose the dealer now: the players have not cut for the first deal yet",
        ),
    ]
    for table, command, kind, sentence in cases:
        error = refusal(table, command)
        assert (type(error), str(error)) == (kind, sentence)


def test_a_command_of_another_kind_of_match_is_refused_naming_it() -> None:
    with pytest.raises(InvalidCommand) as refused:
        decide(new_match(), CutSeats(seed="00"))  # type: ignore[arg-type]
    assert str(refused.value) == "CutSeats is not a command of this game"


def sentence(table: Table, command: Command) -> tuple[type[DomainError], str]:
    error = refusal(table, command)
    return type(error), str(error)


def test_a_move_out_of_phase_says_what_the_match_waits_for_word_for_word() -> None:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", dealer=1)
    assert sentence(table, Discard(seat=0, card="As")) == (
        IllegalMove,
        "you cannot discard now: the upcard is offered to you: take it or pass",
    )
    assert sentence(new_table(), DrawFromStock(seat=0)) == (
        IllegalMove,
        "you cannot draw now: the next hand has not been dealt yet",
    )
    assert sentence(Table(new_match(), []), DrawFromStock(seat=0)) == (
        IllegalMove,
        "you cannot draw now: the match has not been created yet",
    )


@pytest.mark.parametrize(
    ("command", "doing"),
    [
        (Knock(seat=0, card="As"), "knock"),
        (BigGin(seat=0), "go big gin"),
        (Discard(seat=0, card="As"), "discard"),
    ],
)
def test_a_move_before_its_phase_names_the_move_word_for_word(command: Command, doing: str) -> None:
    table = deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", dealer=1)  # seat 0 is offered 5c
    assert sentence(table, command) == (
        IllegalMove,
        f"you cannot {doing} now: the upcard is offered to you: take it or pass",
    )


def test_drawing_twice_is_refused_saying_what_the_turn_waits_for() -> None:
    table = drawing()
    table.draw_stock(0)
    for draw in (DrawFromStock(seat=0), DrawFromDiscard(seat=0)):
        assert sentence(table, draw) == (
            IllegalMove,
            "you cannot draw now: you drew and must now discard or knock",
        )


def test_every_command_after_the_match_is_over_is_refused_saying_so() -> None:
    table = drawing()
    table.do(Resign(seat=0))
    for command in (DrawFromStock(seat=1), Deal(seed="00"), Discard(seat=0, card="As")):
        assert sentence(table, command) == (MatchOver, "the match is over")


def test_melds_that_are_not_lists_of_cards_are_refused_word_for_word() -> None:
    table = drawing()
    table.draw_stock(0)
    bad = Knock(seat=0, card="Kd", melds="As 2s 3s")  # type: ignore[arg-type]
    assert sentence(table, bad) == (
        InvalidCommand,
        'melds must be a list of lists of cards, e.g. [["7h", "8h", "9h"]]',
    )
