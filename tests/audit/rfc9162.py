"""RFC 9162's Merkle tree definitions, written out as the RFC gives them (sections 2.1.1,
2.1.3.1 and 2.1.4.1): recursive over the whole list of leaves, slow and plain, so the service's
own tree and proofs (``service.audit.merkle_proofs``) are checked against something that
shares nothing with them but SHA-256."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


def _k(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves: Sequence[bytes]) -> bytes:
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = _k(len(leaves))
    return hashlib.sha256(b"\x01" + mth(leaves[:k]) + mth(leaves[k:])).digest()


def path(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    if len(leaves) == 1:
        return []
    k = _k(len(leaves))
    if m < k:
        return [*path(m, leaves[:k]), mth(leaves[k:])]
    return [*path(m - k, leaves[k:]), mth(leaves[:k])]


def proof(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    return _subproof(m, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], b: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if b else [mth(leaves)]
    k = _k(n)
    if m <= k:
        return [*_subproof(m, leaves[:k], b), mth(leaves[k:])]
    return [*_subproof(m - k, leaves[k:], False), mth(leaves[:k])]
