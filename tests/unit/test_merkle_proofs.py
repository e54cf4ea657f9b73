"""The service's proofs are the RFC 9162 ones (``tests.audit.rfc9162``, the RFC's recursive
definitions), for every tree of up to 40 leaves, and its checks accept exactly those."""

from __future__ import annotations

import hashlib

import pytest

from service.audit.log_tree import Frontier, leaf_hash
from service.audit.merkle_proofs import KeptLeaves, consistent, root_from_inclusion
from tests.audit import rfc9162

LEAVES = [hashlib.sha256(str(n).encode()).digest()[: 1 + n % 7] for n in range(40)]


def kept(count: int) -> KeptLeaves:
    leaves = KeptLeaves()
    for n, leaf in enumerate(LEAVES[:count]):
        leaves.append(leaf_hash(leaf), 10 * (n ^ 1) + 3)  # not in order, as the log's
    return leaves


def flipped(hashes: list[bytes], at: int) -> list[bytes]:
    changed = bytearray(hashes[at])
    changed[0] ^= 1
    return [*hashes[:at], bytes(changed), *hashes[at + 1 :]]


@pytest.mark.parametrize("size", range(1, 41))
def test_heads_and_inclusion_proofs_are_the_rfcs(size: int) -> None:
    leaves = kept(size)
    frontier = Frontier()
    for leaf in LEAVES[:size]:
        frontier.append(leaf)
    head = rfc9162.mth(LEAVES[:size])
    assert leaves.head(size) == head == frontier.root()
    for index in range(size):
        path = leaves.inclusion_path(index, size)
        assert path == rfc9162.path(index, LEAVES[:size])
        own = leaf_hash(LEAVES[index])
        assert root_from_inclusion(index, size, own, path) == head
        others = [i for i in (index - 1, index + 1) if 0 <= i < size]
        for other in others:
            assert root_from_inclusion(other, size, own, path) != head
        assert root_from_inclusion(index, size, leaf_hash(b"another"), path) != head
        for at in range(len(path)):
            assert root_from_inclusion(index, size, own, flipped(path, at)) != head
        assert root_from_inclusion(index, size, own, [*path, head]) is None


@pytest.mark.parametrize("second", range(1, 41))
def test_consistency_proofs_are_the_rfcs(second: int) -> None:
    leaves = kept(second)
    second_head = rfc9162.mth(LEAVES[:second])
    for first in range(1, second + 1):
        proof = leaves.consistency_proof(first, second)
        assert proof == rfc9162.proof(first, LEAVES[:second])
        first_head = rfc9162.mth(LEAVES[:first])
        assert consistent(first, first_head, second, second_head, proof)
        for at in range(len(proof)):
            assert not consistent(first, first_head, second, second_head, flipped(proof, at))
        forked = rfc9162.mth([*LEAVES[: first - 1], b"forked"])
        assert not consistent(first, forked, second, second_head, proof)
        if first < second:
            assert not consistent(first, first_head, second, first_head, proof)
            assert not consistent(first + 1, first_head, second, second_head, proof)


def test_leaves_are_found_by_their_place_in_the_log() -> None:
    leaves = kept(5)
    assert [leaves.index_of(10 * n + 3) for n in range(5)] == [1, 0, 3, 2, None]
    assert leaves.index_of(4) is None
    assert leaves.index_of(53) == 4
    assert leaves.head(0) == hashlib.sha256(b"").digest()
