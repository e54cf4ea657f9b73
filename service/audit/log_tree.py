"""The Merkle tree over the global log, hashed as RFC 9162 (Certificate Transparency v2) does.

Leaf ``i`` is the ``i``-th event the global log returns, in its order (``EventStore.read_all``).
Hashes follow RFC 9162 section 2.1.1: a leaf is ``SHA-256(0x00 || leaf)``, an inner node
``SHA-256(0x01 || left || right)``, and the tree head of ``n`` leaves splits them at the largest
power of two below ``n``. So the heads are a tree's, not a plain chain's: a head of size ``m``
and one of size ``n > m`` can be shown consistent, and an event shown included, with
``log2(n)`` hashes (RFC 9162 sections 2.1.3-2.1.4), should a verifier without the whole store
need it; ``gin audit`` has the whole store and recomputes the heads.

A leaf is not the bare event hash: that hash is secret until the hand it belongs to is over (a
player with two heads in a row could try each card the opponent might hold), so a match's
events are blinded with a value derived from the match's secret, which no player ever sees and
every auditor of the store can read. Whoever rewrites the store changes some leaf, so every
head issued after the rewritten event: the blind hides, the signature on the head binds.

Which events are blinded is the leaf rule. The first blinded only the streams named ``match-``
and ``fairness-`` and left three- and four-player matches' own streams bare; the second blinds
every stream of a match (``service.store.match_stream_names``). A leaf's rule is fixed by its
place: the events a release before the second rule wrote (how many, the store records:
``EventStore.every_match_blinded_from``) keep the first, so every head signed over them stays
the same and the tree stays append-only; the rest follow the second.
"""

from __future__ import annotations

import hashlib

from service.ports.event_store import StoredEvent
from service.store.match_stream_names import match_of_stream

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
LEAF_TAG = b"gin-log-leaf-1"
BLIND_TAG = b"gin-log-blind-1"
NO_BLIND = b""
# What the first leaf rule blinds, as releases before the second wrote it: frozen, whatever
# streams a match has now.
FIRST_RULE_BLINDED = ("match-", "fairness-")


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def log_blind(server_secret: bytes) -> bytes:
    """What blinds a match's events in the tree (the secret itself never leaves the store)."""
    return hashlib.sha256(BLIND_TAG + server_secret).digest()


def blinding_match(stream_id: str, *, second_rule: bool) -> str | None:
    """The match whose blind an event of ``stream_id`` takes under its leaf rule, or None if
    its leaf is not blinded."""
    if not second_rule and not stream_id.startswith(FIRST_RULE_BLINDED):
        return None
    return match_of_stream(stream_id)


def event_leaf(event: StoredEvent, blind: bytes) -> bytes:
    """An event's leaf: where it is (stream, version, position) and its chained hash, blinded."""
    return leaf_of(event.stream_id, event.version, event.position, event.hash, blind)


def leaf_of(stream_id: str, version: int, position: int, event_hash: bytes, blind: bytes) -> bytes:
    """The leaf of the event at ``version`` of ``stream_id`` and ``position`` in the log, from
    what a receipt and a record give. Every field is fixed-length or length-prefixed, so no
    two events share a leaf."""
    stream = stream_id.encode()
    return b"".join(
        (
            LEAF_TAG,
            len(stream).to_bytes(2, "big"),
            stream,
            version.to_bytes(8, "big"),
            position.to_bytes(8, "big"),
            event_hash,
            len(blind).to_bytes(1, "big"),
            blind,
        )
    )


class Frontier:
    """The roots of the perfect subtrees a tree of ``size`` leaves splits into, left to right
    (largest first): enough to append a leaf in O(log n) and compute the head at any time."""

    __slots__ = ("_subtrees", "size")

    def __init__(self) -> None:
        self.size = 0
        self._subtrees: list[tuple[int, bytes]] = []  # (leaves under it, root)

    def append(self, leaf: bytes) -> None:
        self.size += 1
        self._subtrees.append((1, leaf_hash(leaf)))
        while len(self._subtrees) > 1 and self._subtrees[-1][0] == self._subtrees[-2][0]:
            (count, right), (_, left) = self._subtrees.pop(), self._subtrees.pop()
            self._subtrees.append((2 * count, node_hash(left, right)))

    def root(self) -> bytes:
        """The RFC 9162 tree head: the subtrees folded from the right."""
        if not self._subtrees:
            return hashlib.sha256(b"").digest()
        head = self._subtrees[-1][1]
        for _, left in reversed(self._subtrees[:-1]):
            head = node_hash(left, head)
        return head
