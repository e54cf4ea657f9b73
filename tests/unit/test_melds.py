"""The card maths against a brute-force oracle, and the rules of melds and layoffs in notation.

The oracle is deliberately naive: it lists every set of disjoint melds from ``ALL_MELDS``
inside a hand, and every order of laying cards off onto the knocker's melds, and takes the
best. Hands come uniform and meld-dense (melds, melds less a card, four-card sets crossing
runs, cards next to the knocker's melds) so the hard cases are common, not rare.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain
from domain.cards import VALUES, Mask, cards_of, mask_of, parse_cards
from domain.errors import IllegalMove, InvalidCommand, InvalidNotation
from domain.melds import (
    ALL_MELDS,
    Arrangement,
    DefenderResult,
    arrangement_of,
    best_arrangement,
    defender_result,
    gin_kept,
    is_big_gin,
    is_meld,
    knock_options,
    knocker_arrangement,
    layoff_targets,
    melds_in,
    min_deadwood,
    min_deadwood_after_discard,
)
from tests.unit.helpers import examples


def oracle_runs(count: int) -> settings:
    return settings(
        max_examples=examples(count), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


def hand(text: str) -> Mask:
    return mask_of(parse_cards(text))


def melds(*texts: str) -> tuple[Mask, ...]:
    return tuple(hand(text) for text in texts)


# The oracle: plain definitions and exhaustive search, nothing clever.


def plain_value(cards: Mask) -> int:
    return sum(VALUES[card] for card in cards_of(cards))


def plain_is_meld(cards: Mask) -> bool:
    listed = list(cards_of(cards))
    ranks = [card % 13 for card in listed]
    if len(listed) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(listed) <= 4
    one_suit = len({card // 13 for card in listed}) == 1
    return one_suit and ranks == list(range(ranks[0], ranks[0] + len(listed)))


def union(chosen: Sequence[Mask]) -> Mask:
    cards = 0
    for meld in chosen:
        cards |= meld
    return cards


def packings(cards: Mask) -> list[tuple[Mask, ...]]:
    """Every set of disjoint melds inside ``cards``, the empty one included."""
    inside = [meld for meld in ALL_MELDS if meld & cards == meld]
    found: list[tuple[Mask, ...]] = []

    def extend(start: int, used: Mask, chosen: tuple[Mask, ...]) -> None:
        found.append(chosen)
        for i in range(start, len(inside)):
            if not inside[i] & used:
                extend(i + 1, used | inside[i], (*chosen, inside[i]))

    extend(0, 0, ())
    return found


def oracle_min_deadwood(cards: Mask) -> int:
    return min(plain_value(cards & ~union(chosen)) for chosen in packings(cards))


def oracle_knock_options(cards: Mask) -> dict[int, int]:
    options: dict[int, int] = {}
    for chosen in packings(cards):
        left = cards & ~union(chosen)
        for card in cards_of(left):
            count = plain_value(left) - VALUES[card]
            options[card] = min(options.get(card, count), count)
    return options


def least_left_after_layoffs(spare: Mask, table: tuple[Mask, ...]) -> int:
    """Try every card onto every meld it fits, in every order, chains included."""
    best = plain_value(spare)
    seen = {(spare, table)}
    todo = [(spare, table)]
    while todo:
        left, melds_now = todo.pop()
        best = min(best, plain_value(left))
        for card in cards_of(left):
            for i, meld in enumerate(melds_now):
                if plain_is_meld(meld | 1 << card):
                    grown = (*melds_now[:i], meld | 1 << card, *melds_now[i + 1 :])
                    state = (left ^ 1 << card, grown)
                    if state not in seen:
                        seen.add(state)
                        todo.append(state)
    return best


def oracle_defender_count(defender: Mask, knocker_melds: Sequence[Mask]) -> int:
    return min(
        least_left_after_layoffs(defender & ~union(own), tuple(knocker_melds))
        for own in packings(defender)
    )


def by_lowest_card(meld: Mask) -> tuple[int, Mask]:
    return (meld & -meld).bit_length(), meld


def whole_runs(chosen: Sequence[Mask]) -> tuple[Mask, ...]:
    """The same melds with touching runs of a suit joined, listed by lowest card."""
    merged = list(chosen)
    joined = True
    while joined:
        joined = False
        for a in merged:
            for b in merged:
                one_suit = len({card // 13 for card in cards_of(a | b)}) == 1
                if a != b and one_suit and plain_is_meld(a | b):
                    merged = [m for m in merged if m not in (a, b)] + [a | b]
                    joined = True
                    break
            if joined:
                break
    return tuple(sorted(merged, key=by_lowest_card))


# Hands: uniform, and dense with melds and near-melds.


def set_across_run(rank: int, suit: int, below: int, length: int) -> Mask:
    four = sum(1 << (rank + 13 * s) for s in range(4))
    start = max(0, rank - below)
    run = sum(1 << (13 * suit + r) for r in range(start, min(13, start + length)))
    return four | run


SHORT_MELDS = [meld for meld in ALL_MELDS if meld.bit_count() <= 5]
# Building blocks of meld-dense hands: melds, melds less one card, 4-card sets crossing runs.
PIECES = sorted(
    set(SHORT_MELDS)
    | {meld ^ 1 << card for meld in SHORT_MELDS for card in cards_of(meld)}
    | {
        set_across_run(rank, suit, below, length)
        for rank in range(13)
        for suit in range(4)
        for below in range(3)
        for length in range(3, 6)
    }
)


piece_lists = st.lists(st.sampled_from(PIECES), min_size=1, max_size=4)
# Strategies are built once: one wide number, cut down to the choice at hand, keeps drawing cheap.
numbers = st.integers(0, 2**48)


def choose(draw: st.DrawFn, cards: list[int], count: int) -> list[int]:
    """``count`` of ``cards``: one drawn number read as the rank of a subset."""
    number = draw(numbers) % comb(len(cards), count)
    chosen: list[int] = []
    for i, card in enumerate(cards):
        if len(chosen) == count:
            break
        with_card = comb(len(cards) - i - 1, count - len(chosen) - 1)
        if number < with_card:
            chosen.append(card)
        else:
            number -= with_card
    return chosen


def fill(draw: st.DrawFn, base: Mask, size: int, avoid: Mask = 0) -> Mask:
    """``size`` cards: as many of ``base`` as fit, topped up with random cards."""
    wanted = list(cards_of(base & ~avoid))
    kept = wanted if len(wanted) <= size else choose(draw, wanted, size)
    others = [card for card in range(52) if not (avoid | mask_of(kept)) >> card & 1]
    return mask_of(kept) | mask_of(choose(draw, others, size - len(kept)))


def dense(draw: st.DrawFn, size: int, avoid: Mask = 0, near: Mask = 0) -> Mask:
    base = union(draw(piece_lists))
    if near:
        nearby = list(cards_of(near))
        base |= mask_of(choose(draw, nearby, draw(numbers) % (min(6, len(nearby)) + 1)))
    return fill(draw, base, size, avoid)


@st.composite
def uniform_hands(draw: st.DrawFn, size: int) -> Mask:
    return fill(draw, 0, size)


@st.composite
def dense_hands(draw: st.DrawFn, size: int) -> Mask:
    return dense(draw, size)


def any_hands(size: int) -> st.SearchStrategy[Mask]:
    return st.one_of(uniform_hands(size), dense_hands(size), dense_hands(size))


hands_11 = any_hands(11)
hands_10_11 = st.one_of(any_hands(10), hands_11)


def neighbours(cards: Mask) -> Mask:
    near = 0
    for card in cards_of(cards):
        rank, suit = card % 13, card // 13
        near |= sum(1 << (rank + 13 * s) for s in range(4))
        near |= sum(1 << (13 * suit + r) for r in range(max(0, rank - 2), min(13, rank + 3)))
    return near & ~cards


@st.composite
def knock_deals(draw: st.DrawFn) -> tuple[Mask, Mask]:
    """A knocker's 10 cards and a defender's 10, the defender's often next to the knocker's."""
    knocker = dense(draw, 10) if draw(st.booleans()) else fill(draw, 0, 10)
    defender = dense(draw, 10, avoid=knocker, near=neighbours(knocker))
    return knocker, defender


# Properties against the oracle (about 10,500 hands in all).


@oracle_runs(3000)
@given(hands_10_11)
def test_min_deadwood_is_the_minimum_over_all_arrangements(cards: Mask) -> None:
    assert min_deadwood(cards) == oracle_min_deadwood(cards)


@oracle_runs(1500)
@given(hands_10_11)
def test_best_arrangement_is_a_real_arrangement_with_least_deadwood(cards: Mask) -> None:
    arrangement = best_arrangement(cards)
    assert all(plain_is_meld(meld) for meld in arrangement.melds)
    assert (
        sum(meld.bit_count() for meld in arrangement.melds) == union(arrangement.melds).bit_count()
    )
    assert union(arrangement.melds) | arrangement.deadwood == cards
    assert not union(arrangement.melds) & arrangement.deadwood
    assert arrangement.count == plain_value(arrangement.deadwood) == oracle_min_deadwood(cards)
    assert arrangement_of(cards, arrangement.melds) == arrangement


@oracle_runs(2500)
@given(hands_11)
def test_knock_options_discard_minimum_and_big_gin_match_oracle(cards: Mask) -> None:
    options = oracle_knock_options(cards)
    assert knock_options(cards) == options
    assert min_deadwood_after_discard(cards) == min(options.values())
    assert is_big_gin(cards) == (oracle_min_deadwood(cards) == 0)


@oracle_runs(2500)
@given(knock_deals(), st.data())
def test_defender_result_is_the_least_deadwood_after_layoffs(
    deal: tuple[Mask, Mask], data: st.DataObject
) -> None:
    knocker, defender = deal
    choices = packings(knocker)
    shown = choices[data.draw(numbers, label="knocker melds") % len(choices)]
    result = defender_result(defender, shown, layoffs_allowed=True)
    assert result.count == oracle_defender_count(defender, shown)
    assert_playable(defender, shown, result)
    no_layoffs = defender_result(defender, shown, layoffs_allowed=False)
    assert no_layoffs.layoffs == ()
    assert no_layoffs.count == oracle_min_deadwood(defender)


@oracle_runs(1000)
@given(knock_deals())
def test_knocker_arrangement_leaves_the_defender_least_to_lay_off(deal: tuple[Mask, Mask]) -> None:
    knocker, defender = deal
    lowest = oracle_min_deadwood(knocker)
    scored = {
        whole_runs(chosen): oracle_defender_count(defender, chosen)
        for chosen in packings(knocker)
        if plain_value(knocker & ~union(chosen)) == lowest
    }
    most_left = max(scored.values())
    arrangement = knocker_arrangement(knocker, defender)
    assert arrangement.count == lowest
    assert arrangement_of(knocker, arrangement.melds) == arrangement
    assert oracle_defender_count(defender, arrangement.melds) == most_left
    assert arrangement.melds == min(melds for melds, left in scored.items() if left == most_left)


def assert_playable(defender: Mask, knocker_melds: Sequence[Mask], result: DefenderResult) -> None:
    """Own melds from the defender's cards, then each layoff legal when it is played."""
    own = union(result.melds)
    assert all(plain_is_meld(meld) for meld in result.melds)
    assert sum(meld.bit_count() for meld in result.melds) == own.bit_count()
    assert own & ~defender == 0
    table = list(knocker_melds)
    laid = 0
    for card, index in result.layoffs:
        assert defender >> card & 1
        assert not (own | laid) >> card & 1
        assert index in layoff_targets(card, table)
        table[index] |= 1 << card
        laid |= 1 << card
    assert result.deadwood == defender & ~own & ~laid
    assert result.count == plain_value(result.deadwood)


# The meld table itself.


def test_all_melds_are_every_set_and_run() -> None:
    # 13 ranks x (four 3-card sets + one 4-card set); 4 suits x runs of 3..13 (11 + 10 + .. + 1)
    assert len(ALL_MELDS) == len(set(ALL_MELDS)) == 13 * 5 + 4 * 66
    assert all(plain_is_meld(meld) for meld in ALL_MELDS)


@settings(max_examples=examples(60), deadline=None)
@given(hands_11)
def test_melds_in_finds_every_meld_of_a_hand(cards: Mask) -> None:
    listed = list(cards_of(cards))
    subsets = [
        mask_of(card for bit, card in enumerate(listed) if pick >> bit & 1)
        for pick in range(1 << len(listed))
    ]
    assert set(melds_in(cards)) == {subset for subset in subsets if plain_is_meld(subset)}
    assert all(is_meld(subset) == plain_is_meld(subset) for subset in subsets)


def test_ace_is_low_and_runs_do_not_wrap() -> None:
    assert is_meld(hand("As 2s 3s"))
    assert not is_meld(hand("Qs Ks As"))
    assert not is_meld(hand("Jc Qc Kc Ad"))  # neighbours in the bit layout, not in the deck
    assert min_deadwood(hand("Qc Kc Ad 2d")) == 23


# Melds and deadwood, in notation.


def test_four_card_set_is_split_so_one_card_joins_a_run() -> None:
    cards = hand("7c 7d 7h 7s 5s 6s")
    assert min_deadwood(cards) == 0
    assert best_arrangement(cards).melds == melds("7c 7d 7h", "5s 6s 7s")


def test_card_goes_where_the_total_is_lowest_not_greedily() -> None:
    # 4h in the set leaves 2h 3h (5); in the run 2h 3h 4h it would leave 4c 4d (8)
    cards = hand("4c 4d 4h 2h 3h")
    assert min_deadwood(cards) == 5
    assert best_arrangement(cards) == Arrangement(melds("4c 4d 4h"), hand("2h 3h"), 5)


def test_empty_hand_has_no_deadwood() -> None:
    assert min_deadwood(0) == 0
    assert best_arrangement(0) == Arrangement((), 0, 0)
    assert knock_options(0) == {}
    assert not is_big_gin(0)
    assert domain.deadwood("") == 0


def test_big_gin_is_eleven_cards_all_in_melds() -> None:
    eleven = hand("As 2s 3s 4s 5s 7c 7d 7h 9d 9h 9s")
    assert is_big_gin(eleven)
    assert min_deadwood(eleven) == 0
    assert min_deadwood_after_discard(eleven) == 0
    assert not is_big_gin(hand("As 2s 3s 4s 7c 7d 7h 9d 9h 9s"))  # gin, but only ten cards


def test_eleven_cards_knock_after_putting_the_best_card_aside() -> None:
    eleven = hand("As 2s 3s 7c 7d 7h 9d 9h 9s 4d Kc")
    options = knock_options(eleven)
    assert len(options) == 11
    assert options[parse_cards("Kc")[0]] == 4
    assert options[parse_cards("4d")[0]] == 10
    assert min_deadwood_after_discard(eleven) == 4


def test_nine_cards_in_three_melds_of_three_must_break_one_to_discard() -> None:
    nine = hand("As 2s 3s 7c 7d 7h 9d 9h 9s")
    assert min_deadwood(nine) == 0
    assert min_deadwood_after_discard(nine) == min(knock_options(nine).values()) == 3


def test_nine_cards_in_three_runs_must_break_one_to_discard() -> None:
    nine = hand("As 2s 3s 5h 6h 7h 9d Td Jd")
    assert min_deadwood_after_discard(nine) == 3  # the 3s goes, the As 2s stay


def test_no_cards_leave_no_deadwood_after_a_discard() -> None:
    assert min_deadwood_after_discard(0) == 0


def test_gin_cannot_be_declined_and_keeps_the_named_melds_in_meld_order() -> None:
    cards = hand("7c 7d 7h 7s 2c 3c 4c 8c 9c Tc")
    kept = gin_kept(cards, arrangement_of(cards, melds("8c 9c Tc")))
    assert kept == Arrangement(melds("2c 3c 4c", "7c 7d 7h 7s", "8c 9c Tc"), 0, 0)


def test_deadwood_reads_notation() -> None:
    assert domain.deadwood("As 2s 3s Kd") == 10
    assert domain.deadwood(["7c", "7d", "7h", "7s", "5s", "6s"]) == 0
    # Eleven cards, a hand before its discard, are the most it reads.
    assert domain.deadwood("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js") == 0
    with pytest.raises(InvalidCommand, match="at most 11 cards"):
        domain.deadwood("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs")
    with pytest.raises(InvalidNotation):
        domain.deadwood("As Xx")


def test_arrangement_of_counts_the_chosen_melds() -> None:
    cards = hand("7c 7d 7h 7s 5s 6s Kd")
    chosen = arrangement_of(cards, melds("7c 7d 7h 7s"))
    assert chosen == Arrangement(melds("7c 7d 7h 7s"), hand("5s 6s Kd"), 21)


NOT_A_MELD = (
    "is not a meld: a meld is 3 or 4 cards of one rank, or 3 or more cards of one suit in sequence"
)


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (["7c 8d 9c"], f"7c 8d 9c {NOT_A_MELD}"),
        (["Qs Ks As"], f"As Qs Ks {NOT_A_MELD}"),
        (["7s 8s 9s"], "9s is not in the hand"),
        (["7h 8h 9h"], "8h 9h are not in the hand"),
        (["Jh Qh Kh Ah"], f"Ah Jh Qh Kh {NOT_A_MELD}"),
        (["7c 7d 7h 7s", "5s 6s 7s"], "7s cannot be in two melds"),
        ([""], f"that group of cards {NOT_A_MELD}"),
        (["Ac"], f"Ac {NOT_A_MELD}"),
    ],
)
def test_arrangement_of_refuses_bad_melds_word_for_word(chosen: list[str], message: str) -> None:
    cards = hand("7c 7d 7h 7s 5s 6s 8s Kd Jh Qh Kh Qs As Ac")
    with pytest.raises(IllegalMove) as refused:
        arrangement_of(cards, melds(*chosen))
    assert str(refused.value) == message


# Laying off, in notation.


def test_layoffs_chain_along_a_run() -> None:
    knocker = melds("5s 6s 7s", "Jc Jd Jh")
    result = defender_result(hand("8s 9s 3s 4s Js Kc"), knocker, layoffs_allowed=True)
    assert result.count == 10
    assert result.deadwood == hand("Kc")
    assert set(result.layoffs) == {(card, 0) for card in parse_cards("3s 4s 8s 9s")} | {
        (parse_cards("Js")[0], 1)
    }
    assert_playable(hand("8s 9s 3s 4s Js Kc"), knocker, result)


def test_a_run_of_the_defenders_own_next_to_a_knockers_run_counts_nothing() -> None:
    result = defender_result(hand("8s 9s Ts Kc"), melds("5s 6s 7s"), layoffs_allowed=True)
    assert result.count == 10


def test_no_layoffs_onto_gin() -> None:
    gin = melds("5s 6s 7s", "Jc Jd Jh", "2d 3d 4d 5d")
    result = defender_result(hand("8s 9s Js 6d Kc"), gin, layoffs_allowed=False)
    assert result.layoffs == ()
    assert result.count == 8 + 9 + 10 + 6 + 10


def test_layoff_targets_are_a_sets_fourth_card_and_a_runs_ends() -> None:
    table = melds("5s 6s 7s", "Jc Jd Jh", "Qc Qd Qh Qs", "8d 9d Td")
    assert layoff_targets(parse_cards("4s")[0], table) == [0]
    assert layoff_targets(parse_cards("8s")[0], table) == [0]
    assert layoff_targets(parse_cards("9s")[0], table) == []  # only once 8s is on
    assert layoff_targets(parse_cards("Js")[0], table) == [1]
    assert layoff_targets(parse_cards("7d")[0], table) == [3]
    assert layoff_targets(parse_cards("Kd")[0], table) == []
    assert layoff_targets(parse_cards("As")[0], melds("Js Qs Ks")) == []  # no wrapping


def test_defender_breaks_an_own_meld_when_laying_off_leaves_less() -> None:
    # Keeping 7c 7d 7h leaves 8h 8d (16); laying 7h 8h and 7d 8d onto the runs leaves 7c (7).
    knocker = melds("4h 5h 6h", "4d 5d 6d")
    defender = hand("7c 7d 7h 8h 8d")
    assert min_deadwood(defender) == 16
    result = defender_result(defender, knocker, layoffs_allowed=True)
    assert result.count == 7
    assert result.melds == ()
    assert_playable(defender, knocker, result)


def test_defender_keeps_an_own_run_rather_than_lay_off_its_card() -> None:
    # 7s could be the 4th seven, but 5s 6s 7s as a run leaves nothing.
    result = defender_result(hand("5s 6s 7s Kd"), melds("7c 7d 7h"), layoffs_allowed=True)
    assert result.count == 10
    assert result.melds == melds("5s 6s 7s")


def test_knocker_arrangement_leaves_the_defender_less_to_lay_off() -> None:
    knocker = hand("7c 8c 9c 7d 8d 9d 7h 8h 9h 2s")
    defender = hand("6c Tc 6d Td Kd Kh Ks 2c 3c 4c")
    as_runs = melds("7c 8c 9c", "7d 8d 9d", "7h 8h 9h")
    as_sets = melds("7c 7d 7h", "8c 8d 8h", "9c 9d 9h")
    assert defender_result(defender, as_runs, layoffs_allowed=True).count == 0
    assert defender_result(defender, as_sets, layoffs_allowed=True).count == 32
    assert knocker_arrangement(knocker, defender) == Arrangement(as_sets, hand("2s"), 2)
