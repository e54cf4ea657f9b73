"""Inclusion and consistency proofs over the global log's tree, made and checked as RFC 9162
(sections 2.1.3 and 2.1.4) says.

``KeptLeaves`` keeps what a proof needs and the frontier (``log_tree.Frontier``) does not:
the hash of every complete, aligned subtree (level ``k`` holds the heads of leaves
``[j * 2^k, (j + 1) * 2^k)``), two hashes a leaf in all, and which leaf each position in the
global log is (the log's order is the order transactions committed in, not the positions').
Any subtree a proof names is a few of those folded, so a proof costs ``O(log^2 n)`` hashes
whatever the log's size. The checks (``root_from_inclusion``, ``consistent``) are the
RFC's verification algorithms, for whoever holds a signed head and a proof but not the store.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from service.audit.log_tree import node_hash

HASH = 32
EMPTY_HEAD = hashlib.sha256(b"").digest()


def _split(size: int) -> int:
    """The largest power of two below ``size`` (> 1): where RFC 9162 splits ``size`` leaves."""
    return 1 << ((size - 1).bit_length() - 1)


class KeptLeaves:
    __slots__ = ("_index", "_levels")

    def __init__(self) -> None:
        self._levels: list[bytearray] = [bytearray()]
        self._index: dict[int, int] = {}  # leaf by position

    @property
    def size(self) -> int:
        return len(self._index)

    def append(self, leaf_hash: bytes, position: int) -> None:
        self._index[position] = len(self._index)
        self._levels[0] += leaf_hash
        level = 0
        while len(self._levels[level]) % (2 * HASH) == 0:
            if level + 1 == len(self._levels):
                self._levels.append(bytearray())
            below = self._levels[level]
            self._levels[level + 1] += node_hash(
                bytes(below[-2 * HASH : -HASH]), bytes(below[-HASH:])
            )
            level += 1

    def index_of(self, position: int) -> int | None:
        """The leaf of the event at ``position`` in the global log, if it is one."""
        return self._index.get(position)

    def head(self, size: int) -> bytes:
        """The tree head of the first ``size`` leaves."""
        return self._subtree(0, size) if size else EMPTY_HEAD

    def inclusion_path(self, index: int, size: int) -> list[bytes]:
        """PATH(index, D[0:size]) (RFC 9162 section 2.1.3.1), from the leaf up."""
        assert 0 <= index < size <= self.size

        def path(m: int, start: int, end: int) -> list[bytes]:
            if end - start == 1:
                return []
            k = _split(end - start)
            if m < k:
                return [*path(m, start, start + k), self._subtree(start + k, end)]
            return [*path(m - k, start + k, end), self._subtree(start, start + k)]

        return path(index, 0, size)

    def consistency_proof(self, first: int, second: int) -> list[bytes]:
        """PROOF(first, D[0:second]) (RFC 9162 section 2.1.4.1); empty when they are equal."""
        assert 0 < first <= second <= self.size

        def subproof(m: int, start: int, end: int, whole: bool) -> list[bytes]:
            if m == end - start:
                return [] if whole else [self._subtree(start, end)]
            k = _split(end - start)
            if m <= k:
                return [*subproof(m, start, start + k, whole), self._subtree(start + k, end)]
            return [*subproof(m - k, start + k, end, False), self._subtree(start, start + k)]

        return subproof(first, 0, second, True)

    def _subtree(self, start: int, end: int) -> bytes:
        """MTH(D[start:end]) for a subtree of the RFC's tree (``start`` is a multiple of the
        largest power of two up to ``end - start``)."""
        count = end - start
        if count & (count - 1) == 0:
            level = count.bit_length() - 1
            at = (start >> level) * HASH
            return bytes(self._levels[level][at : at + HASH])
        k = _split(count)
        return node_hash(self._subtree(start, start + k), self._subtree(start + k, end))


def root_from_inclusion(
    index: int, size: int, leaf_hash: bytes, path: Sequence[bytes]
) -> bytes | None:
    """The head an inclusion proof leads to (RFC 9162 section 2.1.3.2), or None if the proof
    cannot be one of leaf ``index`` in a tree of ``size`` leaves: compare it with a signed head."""
    if not 0 <= index < size:
        return None
    fn, sn, root = index, size - 1, leaf_hash
    for sibling in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            root = node_hash(sibling, root)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            root = node_hash(root, sibling)
        fn, sn = fn >> 1, sn >> 1
    return root if sn == 0 else None


def consistent(
    first: int, first_head: bytes, second: int, second_head: bytes, proof: Sequence[bytes]
) -> bool:
    """Whether ``proof`` shows the tree of ``first`` leaves with ``first_head`` to be a prefix
    of the one of ``second`` leaves with ``second_head`` (RFC 9162 section 2.1.4.2)."""
    if not 0 < first <= second:
        return False
    if first == second:
        return not proof and first_head == second_head
    if not proof:
        return False
    path = [first_head, *proof] if first & (first - 1) == 0 else list(proof)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    first_root = second_root = path[0]
    for node in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first_root = node_hash(node, first_root)
            second_root = node_hash(node, second_root)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            second_root = node_hash(second_root, node)
        fn, sn = fn >> 1, sn >> 1
    return first_root == first_head and second_root == second_head and sn == 0
