"""RULES.md "Choosing the first dealer", "The deal" and "The first turn (the upcard offer)"."""

from __future__ import annotations

import hashlib
import struct

import pytest

from domain import shuffle
from domain.cards import CARD_NAMES, parse_card, rank_of
from domain.commands import (
    ChooseDealer,
    Cut,
    Deal,
    DrawFromDiscard,
    DrawFromStock,
    PassUpcard,
    TakeUpcard,
)
from domain.errors import IllegalMove, InvalidCommand, NotYourTurn
from domain.events import CardsCut, Dealt, Drew, UpcardPassed
from domain.legal import legal_actions
from domain.shuffle import MAX_SEED_BYTES, cut_pairs, shuffled_deck
from domain.state import Phase
from domain.views import public_view
from tests.unit.helpers import Table, created, deal, new_table

SEAT0 = "As 2s 3s 4h 5h 6h 9c 9d Jc Qd"
SEAT1 = "2c 3c 4c 7d 8d 9h Th Jh Kc Ks"


def offered(dealer: int = 1) -> Table:
    return deal(seat0=SEAT0, seat1=SEAT1, upcard="5c", stock="Qh 8c", dealer=dealer)


def reference_shuffle(seed: bytes) -> list[int]:
    """The algorithm as the docstring of ``shuffled_deck`` tells it, written apart."""
    words: list[int] = []
    counter = 0
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            if not words:
                block = hashlib.sha256(seed + struct.pack(">Q", counter)).digest()
                words = [int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4)]
                counter += 1
            word = words.pop(0)
            if word < 2**32 - 2**32 % n:
                break
        deck[i], deck[word % n] = deck[word % n], deck[i]
    return deck


# The shuffle of this seed draws a word past its limit (at n = 38) and so draws again; a word
# is that rare, about one a million shuffles.
DRAWS_AGAIN = bytes.fromhex("00000000000d2186")


@pytest.mark.parametrize("seed", [b"\x00", b"gin", bytes(range(32)), DRAWS_AGAIN])
def test_shuffle_is_the_documented_deterministic_function_of_the_seed(seed: bytes) -> None:
    deck = shuffled_deck(seed)
    assert sorted(deck) == list(range(52))
    assert deck == reference_shuffle(seed)
    assert shuffled_deck(seed) == deck
    assert shuffled_deck(seed + b"\x00") != deck


def test_cut_higher_rank_wins_and_equal_ranks_cut_again() -> None:
    seed = next(bytes([n]) for n in range(256) if len(cut_pairs(bytes([n]))) > 1)
    table = created()
    (cut,) = table.do(Cut(seed=seed.hex()))
    assert isinstance(cut, CardsCut)
    pairs = [(parse_card(first), parse_card(second)) for first, second in cut.pairs]
    assert len(pairs) > 1
    assert all(rank_of(first) == rank_of(second) for first, second in pairs[:-1])
    first, second = pairs[-1]
    assert rank_of(first) != rank_of(second)
    assert cut.winner == (0 if rank_of(first) > rank_of(second) else 1)
    deck = shuffled_deck(seed)
    assert [card for pair in pairs for card in pair] == deck[: 2 * len(pairs)]


@pytest.mark.parametrize("seat", [0, 1])
def test_either_seat_wins_the_cut_with_the_higher_card_and_the_cut_is_shown(seat: int) -> None:
    def higher(seed: bytes) -> bool:
        last = cut_pairs(seed)[-1]
        return rank_of(last[seat]) > rank_of(last[1 - seat])

    seed = next(bytes([n]) for n in range(256) if higher(bytes([n])))
    table = created()
    (cut,) = table.do(Cut(seed=seed.hex()))
    assert isinstance(cut, CardsCut)
    assert (cut.winner, table.state.turn) == (seat, seat)
    assert public_view(table.state).cut == cut


@pytest.mark.parametrize("dealer", [0, 1])
def test_winner_of_the_cut_chooses_who_deals_first(dealer: int) -> None:
    table = created()
    (cut,) = table.do(Cut(seed="00"))
    assert isinstance(cut, CardsCut)
    loser = 1 - cut.winner
    assert legal_actions(table.state, loser) == []
    with pytest.raises(NotYourTurn):
        table.do(ChooseDealer(seat=loser, dealer=dealer))
    table.do(ChooseDealer(seat=cut.winner, dealer=dealer))
    assert table.state.dealer == dealer
    assert table.state.phase is Phase.DEAL


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_ten_cards_each_one_at_a_time_non_dealer_first(dealer: int) -> None:
    table = new_table(dealer=dealer)
    (dealt,) = table.do(Deal(seed="c0ffee"))
    assert isinstance(dealt, Dealt)
    deck = [CARD_NAMES[card] for card in shuffled_deck(bytes.fromhex("c0ffee"))]
    assert dealt.hands[1 - dealer] == deck[0:20:2]
    assert dealt.hands[dealer] == deck[1:20:2]
    assert dealt.upcard == deck[20]
    assert dealt.stock == deck[21:]
    assert len(dealt.stock) == 31
    assert table.state.pile == (parse_card(deck[20]),)
    assert table.state.stock_left == 31


def test_same_seeds_and_commands_reproduce_the_match() -> None:
    def play() -> list[object]:
        table = created()
        table.do(Cut(seed="5eed"))
        assert table.state.turn is not None
        table.do(ChooseDealer(seat=table.state.turn, dealer=0))
        table.do(Deal(seed="deadbeef"))
        table.pass_upcard(1)
        table.pass_upcard(0)
        table.draw_stock(1)
        return list(table.events)

    assert play() == play()


def test_a_word_at_the_limit_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    limit = 2**32 - 2**32 % 52  # the first swap's: n = 52
    monkeypatch.setattr(shuffle, "_words", lambda seed: iter([limit, 5, *[0] * 60]))
    assert shuffled_deck(b"")[51] == 5  # the limit was passed over: 5 % 52 chose card 5


@pytest.mark.parametrize(
    ("seed", "sentence"),
    [
        ("", "the seed must hold 1 to 1024 bytes"),
        ("00" * 1025, "the seed must hold 1 to 1024 bytes"),
        ("xyz", "the seed must be hex text (pairs of 0-9, a-f)"),
        ("abc", "the seed must be hex text (pairs of 0-9, a-f)"),
        (None, "the seed must be hex text"),
    ],
)
def test_seed_must_be_hex_seed_material(seed: object, sentence: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        new_table().do(Deal(seed=seed))  # type: ignore[arg-type]
    assert str(refused.value) == sentence


def test_a_seed_of_the_most_bytes_allowed_deals() -> None:
    table = new_table()
    table.do(Deal(seed="ab" * MAX_SEED_BYTES))
    assert table.state.phase is Phase.OFFER


def test_non_dealer_is_offered_the_upcard_first() -> None:
    table = offered(dealer=1)
    assert table.state.phase is Phase.OFFER
    assert legal_actions(table.state, 0) == [TakeUpcard(seat=0), PassUpcard(seat=0)]
    assert legal_actions(table.state, 1) == []
    with pytest.raises(NotYourTurn):
        table.take_upcard(1)


def test_taking_the_upcard_is_the_draw_then_a_discard_passes_the_turn() -> None:
    table = offered(dealer=1)
    assert table.take_upcard(0) == [Drew(seat=0, source="discard", card="5c")]
    assert table.state.phase is Phase.DISCARD
    assert table.state.hands[0] >> parse_card("5c") & 1
    with pytest.raises(IllegalMove):
        table.draw_stock(0)
    table.discard(0, "Qd")
    assert (table.state.phase, table.state.turn) == (Phase.DRAW, 1)


def test_dealer_may_take_the_upcard_after_the_non_dealer_passes() -> None:
    table = offered(dealer=1)
    assert table.pass_upcard(0) == [UpcardPassed(seat=0)]
    assert legal_actions(table.state, 1) == [TakeUpcard(seat=1), PassUpcard(seat=1)]
    assert table.take_upcard(1) == [Drew(seat=1, source="discard", card="5c")]
    table.discard(1, "Ks")
    assert (table.state.phase, table.state.turn) == (Phase.DRAW, 0)


def test_both_passing_the_upcard_makes_the_non_dealer_draw_from_the_stock() -> None:
    table = offered(dealer=1)
    table.pass_upcard(0)
    table.pass_upcard(1)
    assert legal_actions(table.state, 0) == [DrawFromStock(seat=0)]
    assert legal_actions(table.state, 1) == []
    with pytest.raises(IllegalMove, match="draw from the stock"):
        table.do(DrawFromDiscard(seat=0))
    with pytest.raises(IllegalMove):
        table.take_upcard(0)
    assert table.draw_stock(0) == [Drew(seat=0, source="stock", card="Qh")]
    assert table.state.pile == (parse_card("5c"),)
