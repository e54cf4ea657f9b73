"""Proofs against log checkpoints, for whoever holds a checkpoint and not the store.

An **inclusion proof** shows that one event is leaf ``i`` of the tree a log checkpoint of
``size`` events signs; a **consistency proof** that the log a checkpoint of ``first`` events
signs is the start of the one a checkpoint of ``second`` events signs, so nothing it covered
was changed, dropped or reordered since (RFC 9162 sections 2.1.3 and 2.1.4; the hashes are
``service.audit.merkle_proofs``'s).

A proof holds hashes of subtrees, never a leaf: a match's leaves are blinded with a value of its
secret (``service.audit.log_tree``), so a proof gives no seat a card. Whoever checks an
inclusion proof makes the leaf itself, from the event's hash and the blind, which a finished
match's record reveals.
"""

from __future__ import annotations

import asyncio
import base64

import msgspec

from service.audit.log_checkpoints import LogTree
from service.audit.merkle_proofs import KeptLeaves
from service.errors import DatabaseUnavailable, InvalidParameter, LogTooShort
from service.errors import VersionNotFound as EventNotFound
from service.ports.event_store import EventStore
from service.ports.match_registry import MatchRegistry


class InclusionProof(msgspec.Struct, frozen=True, kw_only=True):
    """Leaf ``leaf_index`` of the tree of ``tree_size`` leaves is the event at ``position``;
    ``audit_path`` (base64 hashes, from the leaf up) leads from its leaf hash to the head."""

    tree_size: int
    leaf_index: int
    position: int
    audit_path: list[str]


class ConsistencyProof(msgspec.Struct, frozen=True, kw_only=True):
    """The tree of ``first`` leaves is the start of the one of ``second``: ``proof`` (base64
    hashes) leads from the one head to both."""

    first: int
    second: int
    proof: list[str]


def encoded(hashes: list[bytes]) -> list[str]:
    return [base64.b64encode(value).decode() for value in hashes]


def decoded(hashes: list[str]) -> list[bytes]:
    """The hashes of a proof's JSON; ValueError if one is not 32 bytes of base64."""
    found = [base64.b64decode(value, validate=True) for value in hashes]
    if any(len(value) != 32 for value in found):
        raise ValueError("a proof's hash is 32 bytes")
    return found


class LogProver:
    """Answers proofs from the log's tree, kept whole (every leaf hash) in memory."""

    def __init__(self, store: EventStore, registry: MatchRegistry) -> None:
        self.store = store
        self.tree = LogTree(store, registry, keep_leaves=True)
        self._lock = asyncio.Lock()  # one catch-up at a time, as the notary's

    async def inclusion_at(self, position: int, tree_size: int) -> InclusionProof:
        leaves = await self._caught_up()
        index = leaves.index_of(position)
        if index is None:
            raise LogTooShort(
                f"the global log has no event at position {position} (yet: an event joins it "
                "once every transaction that began before its own has ended)"
            )
        return self._inclusion(leaves, index, position, tree_size)

    async def inclusion_of(self, stream_id: str, version: int, tree_size: int) -> InclusionProof:
        found = await self.store.read_stream(stream_id, after_version=version - 1)
        if not found or found[0].version != version:
            raise EventNotFound(f"stream {stream_id!r} has no event at version {version}")
        return await self.inclusion_at(found[0].position, tree_size)

    async def consistency(self, first: int, second: int) -> ConsistencyProof:
        leaves = await self._caught_up()
        if not 1 <= first <= second:
            raise InvalidParameter(
                f"a consistency proof goes from a log of 1 event or more to one at least as "
                f"long: not from {first} to {second}"
            )
        self._within(leaves, second)
        return ConsistencyProof(
            first=first, second=second, proof=encoded(leaves.consistency_proof(first, second))
        )

    def _inclusion(
        self, leaves: KeptLeaves, index: int, position: int, tree_size: int
    ) -> InclusionProof:
        self._within(leaves, tree_size)
        if index >= tree_size:
            raise InvalidParameter(
                f"the event at position {position} is event {index + 1} of the log: a log "
                f"checkpoint of {tree_size} events does not cover it yet"
            )
        path = leaves.inclusion_path(index, tree_size)
        return InclusionProof(
            tree_size=tree_size, leaf_index=index, position=position, audit_path=encoded(path)
        )

    @staticmethod
    def _within(leaves: KeptLeaves, size: int) -> None:
        if size > leaves.size:
            raise LogTooShort(
                f"the global log holds {leaves.size} events: there is no checkpoint of {size}"
            )

    async def _caught_up(self) -> KeptLeaves:
        async with self._lock:
            if await self.tree.second_rule_from() is None:
                # As the notary: no leaf is fixed before the leaf rule's start is recorded.
                raise DatabaseUnavailable(
                    "the database is not migrated yet; no log proof until it is"
                )
            await self.tree.catch_up()
        assert self.tree.leaves is not None
        return self.tree.leaves
