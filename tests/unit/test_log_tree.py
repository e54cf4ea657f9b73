"""The global log's tree heads are RFC 9162's: the frontier's head equals the recursive
definition at every size, and changes with any leaf."""

from __future__ import annotations

import hashlib

from service.audit.log_tree import Frontier, leaf_hash, node_hash


def reference_head(leaves: list[bytes]) -> bytes:
    """RFC 9162 section 2.1.1, as written."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaf_hash(leaves[0])
    split = 1
    while split * 2 < len(leaves):
        split *= 2
    return node_hash(reference_head(leaves[:split]), reference_head(leaves[split:]))


def test_the_frontier_gives_the_rfc_9162_head_at_every_size() -> None:
    leaves = [bytes([i]) * (i % 7 + 1) for i in range(70)]
    frontier = Frontier()
    assert frontier.root() == reference_head([])
    for size, leaf in enumerate(leaves, start=1):
        frontier.append(leaf)
        assert frontier.size == size
        assert frontier.root() == reference_head(leaves[:size])


def test_a_changed_leaf_changes_every_later_head() -> None:
    leaves = [bytes([i]) for i in range(20)]
    for changed in range(20):
        edited = [*leaves[:changed], b"edited", *leaves[changed + 1 :]]
        for size in range(changed + 1, 21):
            assert reference_head(edited[:size]) != reference_head(leaves[:size])
