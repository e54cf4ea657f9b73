"""RULES.md "Rule options": defaults, validation, and what each option changes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from domain.commands import BigGin, Knock, StartMatch, decode_command
from domain.errors import IllegalMove, InvalidOptions
from domain.events import GameWon
from domain.legal import legal_actions
from domain.options import RuleOptions, parse_options
from tests.unit.helpers import (
    DEFENDER_92,
    KNOCK_CARD,
    deal,
    knock_hand,
    new_table,
    scored_in,
)


def test_defaults_are_those_of_rules_md() -> None:
    assert msgspec.structs.asdict(RuleOptions()) == {
        "knock_limit": 10,
        "gin_bonus": 25,
        "big_gin_bonus": 31,
        "undercut_bonus": 25,
        "undercut_on_tie": True,
        "game_target": 100,
        "game_bonus": 100,
        "line_bonus": 25,
        "shutout_bonus": 100,
        "match_target": 500,
        "oklahoma": False,
        "oklahoma_spades_double": True,
        "next_dealer": "winner",
        "turn_seconds": 0,
        "bank_seconds": 0,
        "timeouts_to_forfeit": 3,
        "join_seconds": 0,
        "no_show": "forfeit",
    }


def test_every_option_has_a_description_naming_its_default() -> None:
    schema = msgspec.json.schema(RuleOptions)["$defs"]["RuleOptions"]["properties"]
    assert set(schema) == set(RuleOptions.__struct_fields__)
    for name, default in msgspec.structs.asdict(RuleOptions()).items():
        assert f"(default {json.dumps(default)})" in schema[name]["description"], name


INVALID = [
    ("knock_limit", 11),
    ("knock_limit", -1),
    ("gin_bonus", -5),
    ("big_gin_bonus", -1),
    ("undercut_bonus", 1001),
    ("undercut_on_tie", 1),
    ("game_target", 0),
    ("game_bonus", -100),
    ("line_bonus", -25),
    ("shutout_bonus", 2.5),
    ("match_target", -1),
    ("oklahoma", "yes"),
    ("oklahoma_spades_double", None),
    ("next_dealer", "loser"),
]


@pytest.mark.parametrize(("name", "value"), INVALID)
def test_an_invalid_value_is_refused_naming_the_option(name: str, value: Any) -> None:
    with pytest.raises(InvalidOptions, match=name):
        RuleOptions(**{name: value})
    with pytest.raises(InvalidOptions, match=name):
        parse_options({name: value})


def test_an_unknown_option_is_refused_naming_it() -> None:
    with pytest.raises(InvalidOptions, match="knock_limt is not a rule option"):
        parse_options({"knock_limt": 5})


def test_options_arrive_with_the_start_command() -> None:
    command = decode_command(b'{"type":"start_match","options":{"knock_limit":7}}')
    assert command == StartMatch(options=RuleOptions(knock_limit=7))
    with pytest.raises(InvalidOptions, match="knock_limit"):
        decode_command(b'{"type":"start_match","options":{"knock_limit":70}}')


def test_option_knock_limit_lowers_the_limit() -> None:
    table = new_table(RuleOptions(knock_limit=4), dealer=1)
    with pytest.raises(IllegalMove, match="deadwood would be 5; the knock limit is 4"):
        knock_hand(table, knocker=0, dead="5c")
    assert Knock(seat=0, card=KNOCK_CARD) not in legal_actions(table.state, 0)


def test_option_knock_limit_zero_means_gin_only() -> None:
    table = new_table(RuleOptions(knock_limit=0), dealer=1)
    with pytest.raises(IllegalMove, match="can only be ended by gin"):
        knock_hand(table, knocker=0, dead="Ac")
    table = new_table(RuleOptions(knock_limit=0), dealer=1)
    assert scored_in(knock_hand(table, knocker=0, dead="5d")).outcome == "gin"


def test_option_gin_bonus() -> None:
    table = new_table(RuleOptions(gin_bonus=20), dealer=1)
    assert scored_in(knock_hand(table, knocker=0, dead="5d")).points == 5 + 20


BIG_GIN = "7c 7d 7h 7s 8s 9s Ah 2h 3h 4h"  # with 5h: all eleven meld
OPPONENT = "2c 4c Qc Kc 6d 8d Td Qh Kh 9h"  # no meld: deadwood 79


@pytest.mark.parametrize("bonus", [31, 50])
def test_option_big_gin_bonus(bonus: int) -> None:
    options = RuleOptions(big_gin_bonus=bonus, game_target=1000)
    table = deal(seat0=BIG_GIN, seat1=OPPONENT, upcard="Kd", stock="5h", dealer=1, options=options)
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    assert scored_in(table.big_gin(0)).points == 79 + bonus


def test_option_big_gin_bonus_zero_disables_big_gin() -> None:
    options = RuleOptions(big_gin_bonus=0)
    table = deal(seat0=BIG_GIN, seat1=OPPONENT, upcard="Kd", stock="5h", dealer=1, options=options)
    table.pass_upcard(0)
    table.pass_upcard(1)
    table.draw_stock(0)
    assert BigGin(seat=0) not in legal_actions(table.state, 0)
    with pytest.raises(IllegalMove) as refused:
        table.big_gin(0)
    assert str(refused.value) == "big gin is not played under these rules"


def test_option_undercut_bonus() -> None:
    table = new_table(RuleOptions(undercut_bonus=10), dealer=1)
    assert scored_in(knock_hand(table, knocker=0, dead="9c")).points == 9 - 5 + 10


@pytest.mark.parametrize(("undercut_on_tie", "outcome"), [(True, "undercut"), (False, "tie")])
def test_option_undercut_on_tie(undercut_on_tie: bool, outcome: str) -> None:
    table = new_table(RuleOptions(undercut_on_tie=undercut_on_tie), dealer=1)
    assert scored_in(knock_hand(table, knocker=0, dead="5c")).outcome == outcome


def first_game(**options: Any) -> GameWon:
    table = new_table(RuleOptions(**options), dealer=1)
    knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_92)  # gin: 117
    (won,) = [event for event in table.events if isinstance(event, GameWon)]
    return won


def test_option_game_target() -> None:
    table = new_table(RuleOptions(game_target=118), dealer=1)
    knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_92)
    assert not [event for event in table.events if isinstance(event, GameWon)]
    assert first_game(game_target=117).winner == 0


def test_option_game_bonus() -> None:
    assert first_game(game_bonus=50).totals == [117 + 50 + 25 + 100, 0]


def test_option_line_bonus() -> None:
    assert first_game(line_bonus=20).line_bonuses == [20, 0]


def test_option_shutout_bonus() -> None:
    assert first_game(shutout_bonus=0).totals == [117 + 100 + 25, 0]


def test_option_match_target() -> None:
    table = new_table(RuleOptions(match_target=342), dealer=1)
    knock_hand(table, knocker=0, dead="5d", defender=DEFENDER_92)
    assert table.state.winner == 0


def test_option_oklahoma() -> None:
    table = new_table(RuleOptions(oklahoma=True), dealer=1)
    table.deal(seat0=BIG_GIN, seat1=OPPONENT, upcard="4d")
    assert (table.state.knock_limit, table.state.multiplier) == (4, 1)


def test_option_oklahoma_spades_double() -> None:
    for double, multiplier in [(True, 2), (False, 1)]:
        options = RuleOptions(oklahoma=True, oklahoma_spades_double=double)
        table = new_table(options, dealer=1)
        table.deal(seat0=BIG_GIN, seat1=OPPONENT, upcard="Ks")
        assert (table.state.knock_limit, table.state.multiplier) == (10, multiplier)


@pytest.mark.parametrize(
    ("upcard", "limit"), [("As", 0), ("3s", 3), ("Js", 10)]
)  # the ace: gin only
def test_option_oklahoma_spades_double_for_every_spade(upcard: str, limit: int) -> None:
    options = RuleOptions(oklahoma=True, oklahoma_spades_double=True)
    table = new_table(options, dealer=1)
    table.deal(seat0=BIG_GIN, seat1=OPPONENT, upcard=upcard)
    assert (table.state.knock_limit, table.state.multiplier) == (limit, 2)


@pytest.mark.parametrize(("next_dealer", "dealer"), [("winner", 1), ("alternate", 0)])
def test_option_next_dealer(next_dealer: str, dealer: int) -> None:
    table = new_table(RuleOptions(next_dealer=next_dealer), dealer=1)  # type: ignore[arg-type]
    knock_hand(table, knocker=0, dead="9c")  # the dealer, seat 1, undercuts
    assert table.state.dealer == dealer


def test_an_option_of_the_wrong_type_is_refused_naming_it_and_what_was_expected() -> None:
    with pytest.raises(InvalidOptions) as caught:
        parse_options({"knock_limit": "ten"})
    assert str(caught.value) == "knock_limit is not valid: expected `int`, got `str`"
    with pytest.raises(InvalidOptions) as caught:
        parse_options({"next_dealer": "loser"})
    assert str(caught.value) == "next_dealer is not valid: invalid enum value 'loser'"


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        ({"next_dealer": "loser"}, 'next_dealer must be "winner" or "alternate"'),
        ({"no_show": "wait"}, 'no_show must be "forfeit" or "cancel"'),
        ({"bank_seconds": 60}, "bank_seconds needs a turn clock: set turn_seconds too"),
        ({"knock_limit": 11}, "knock_limit must be a whole number from 0 to 10"),
        ({"oklahoma": 1}, "oklahoma must be true or false"),
    ],
)
def test_options_built_in_code_are_refused_word_for_word(
    options: dict[str, Any], sentence: str
) -> None:
    with pytest.raises(InvalidOptions) as refused:
        RuleOptions(**options)
    assert str(refused.value) == sentence


@pytest.mark.parametrize("no_show", ["forfeit", "cancel"])
def test_either_no_show_rule_may_be_chosen(no_show: str) -> None:
    assert RuleOptions(no_show=no_show, join_seconds=60).no_show == no_show  # type: ignore[arg-type]
    assert parse_options({"no_show": no_show}).no_show == no_show
