"""Deterministic shuffles from seed material passed in: the domain never draws randomness.

The same seed always gives the same deck, so a match is reproduced exactly by replaying its
seeds and commands, and an outside verifier can recompute every deal from a revealed seed.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator

from domain.cards import DECK_SIZE, Card, rank_of
from domain.errors import InvalidCommand

_WORDS = struct.Struct(">8I")
_SPAN = 1 << 32
MAX_SEED_BYTES = 1024


def shuffled_deck(seed: bytes) -> list[Card]:
    """The 52 cards in the order a shuffle driven by ``seed`` leaves them.

    Precisely, so that it can be reimplemented elsewhere:

    1. Cards are ints 0..51, ``suit * 13 + rank`` (suits c, d, h, s; ranks A, 2, .., K), and the
       deck starts in that order: ``deck = [0, 1, .., 51]`` (Ac .. Kc, Ad .. Kd, Ah .., .. Ks).
    2. A stream of 32-bit words: for counter = 0, 1, 2, ..., the block
       ``SHA-256(seed || counter as 8 bytes big-endian)`` is split into eight 4-byte big-endian
       unsigned integers, taken in order.
    3. Fisher-Yates: for ``i`` from 51 down to 1, let ``n = i + 1`` and
       ``limit = 2**32 - (2**32 mod n)``; take words from the stream until one, ``w``, is below
       ``limit`` (the rest are discarded, so every index is equally likely), set ``j = w mod n``
       and swap ``deck[i]`` and ``deck[j]``.

    The deck is then read from index 0 up (see the deal in ``domain.decide``).
    """
    words = _words(seed)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        n = i + 1
        limit = _SPAN - _SPAN % n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _words(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from _WORDS.unpack(hashlib.sha256(seed + counter.to_bytes(8, "big")).digest())
        counter += 1


def cut_pairs(seed: bytes) -> list[tuple[Card, Card]]:
    """The cut for the first deal: pairs (seat 0's card, seat 1's card) until the ranks differ.

    Pairs are dealt from ``shuffled_deck(seed)``: deck[0] to seat 0, deck[1] to seat 1, then
    deck[2] and deck[3], and so on. Should all 26 pairs tie, the cut goes on with the deck of
    ``SHA-256(seed)`` (its digest as the new seed), and so on.
    """
    pairs: list[tuple[Card, Card]] = []
    while True:
        deck = shuffled_deck(seed)
        for k in range(0, DECK_SIZE, 2):
            pair = (deck[k], deck[k + 1])
            pairs.append(pair)
            if rank_of(pair[0]) != rank_of(pair[1]):
                return pairs
        seed = hashlib.sha256(seed).digest()


def seed_bytes(seed: str) -> bytes:
    """Seed material arrives as hex text; it must hold at least one byte."""
    if not isinstance(seed, str):
        raise InvalidCommand("the seed must be hex text")
    try:
        data = bytes.fromhex(seed)
    except ValueError:
        raise InvalidCommand("the seed must be hex text (pairs of 0-9, a-f)") from None
    if not 1 <= len(data) <= MAX_SEED_BYTES:
        raise InvalidCommand(f"the seed must hold 1 to {MAX_SEED_BYTES} bytes")
    return data
