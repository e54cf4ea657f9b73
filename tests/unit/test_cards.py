"""Card notation: rank then suit, parsed and printed in one place, refused clearly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cards import (
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    card_name,
    cards_of,
    format_cards,
    mask_of,
    mask_value,
    names,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
    value_of,
)
from domain.errors import InvalidCommand, InvalidNotation
from tests.card_names import card_names_in


def test_every_card_name_round_trips() -> None:
    assert len(set(CARD_NAMES)) == DECK_SIZE
    for card in range(DECK_SIZE):
        assert parse_card(card_name(card)) == card


def test_card_layout_is_suit_times_thirteen_plus_rank() -> None:
    # clubs, diamonds, hearts, spades; ace low
    assert parse_cards("Ac Kc Ad As Ks") == [0, 12, 13, 39, 51]
    assert (rank_of(parse_card("Td")), suit_of(parse_card("Td"))) == (9, 1)


def test_every_card_has_the_suit_and_rank_its_name_says() -> None:
    for card in range(DECK_SIZE):
        name = card_name(card)
        assert "cdhs"[suit_of(card)] == name[1]
        assert "A23456789TJQK"[rank_of(card)] == name[0]


def test_values_are_ace_one_pips_face_value_courts_ten() -> None:
    values = [value_of(card) for card in parse_cards("Ah 2h 9h Th Jh Qh Kh")]
    assert values == [1, 2, 9, 10, 10, 10, 10]
    assert mask_value(FULL_DECK) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)


def test_lower_case_ranks_and_ten_as_10_are_accepted_and_printed_canonically() -> None:
    assert parse_cards("as td 10h 7c Kd") == parse_cards("As Td Th 7c Kd")
    assert format_cards(parse_cards(" qs  10c ")) == "Qs Tc"


def test_a_list_of_words_parses_like_a_sentence() -> None:
    assert parse_cards(["As", "2s", "3s"]) == parse_cards("As 2s 3s")


@settings(max_examples=200, deadline=None)
@given(st.sets(st.integers(0, DECK_SIZE - 1)))
def test_hands_round_trip_through_notation_and_masks(cards: set[int]) -> None:
    text = format_cards(sorted(cards))
    assert parse_cards(text) == sorted(cards)
    assert list(cards_of(mask_of(cards))) == sorted(cards)
    assert names(sorted(cards)) == text.split()


@pytest.mark.parametrize("word", ["Xs", "AS", "1s", "Ax", "A", "Asd", "", "11h", "T"])
def test_bad_notation_is_refused_with_the_format_explained(word: str) -> None:
    with pytest.raises(InvalidNotation, match="rank then suit") as raised:
        parse_card(word)
    assert repr(word) in str(raised.value)


def test_bad_notation_is_refused_word_for_word() -> None:
    with pytest.raises(InvalidNotation) as raised:
        parse_card("Xs")
    assert str(raised.value) == (
        "'Xs' is not a card: write rank then suit, ranks A 2 3 4 5 6 7 8 9 T J Q K, "
        "suits c d h s (e.g. As, Td, 7h, Kc)"
    )


@pytest.mark.parametrize("thing", [None, 7, ["As"]])
def test_a_card_that_is_not_text_is_bad_notation(thing: object) -> None:
    with pytest.raises(InvalidNotation) as raised:
        parse_card(thing)  # type: ignore[arg-type]
    assert str(raised.value).startswith(f"{thing!r} is not a card: write rank then suit")


def test_a_card_listed_twice_is_refused() -> None:
    with pytest.raises(InvalidNotation, match="As is listed twice"):
        parse_cards("As 2s as")


def test_notation_errors_are_invalid_commands_not_illegal_moves() -> None:
    assert issubclass(InvalidNotation, InvalidCommand)
    assert InvalidNotation.kind == "invalid-notation"


NOT_CARDS = ["", "7", "10H", "7H7", "x", '7"H', "AS,KD"]


@given(st.lists(st.sampled_from([*CARD_NAMES, *NOT_CARDS]), max_size=30), st.booleans())
def test_the_tests_find_exactly_the_cards_a_json_text_names_as_whole_strings(
    items: list[str], as_keys: bool
) -> None:
    text = json.dumps(dict.fromkeys(items, 0) if as_keys else items)
    assert card_names_in(text) == {name for name in CARD_NAMES if f'"{name}"' in text}
