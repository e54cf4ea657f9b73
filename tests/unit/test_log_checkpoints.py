"""Log checkpoints over the in-memory store: issued, checked, and every way a store can stop
agreeing with one (an event changed, removed, or another match's secret) is named; and which
leaves each leaf rule blinds."""

from __future__ import annotations

import pytest

from adapters.ed25519_signer import verify_ed25519
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.signer import memory_signer
from service.audit.log_checkpoints import (
    LogNotary,
    LogTree,
    check_log_checkpoints,
    log_checkpoint_text,
)
from service.audit.log_tree import NO_BLIND, Frontier, event_leaf, log_blind
from service.audit.notes import sign_note, verifier_key
from service.errors import DatabaseUnavailable
from service.ports.event_store import NewEvent

MATCH = "00000000-0000-0000-0000-000000000001"


async def log(
    secret: bytes, *, discard: bytes = b'{"card":"7h"}', events: int = 5, later: int = 0
) -> LogTree:
    """``events`` match events, one of another stream, then ``later`` more of it."""
    store, registry = InMemoryEventStore(), InMemoryMatchRegistry()
    await registry.create(MATCH, external_ref=None, server_secret=secret, seats=[])
    stream = f"match-{MATCH}"
    for version in range(events):
        data = discard if version == 2 else b"{}"
        await store.append(stream, [NewEvent("e", 1, data)], expected_version=version)
    for version in range(1 + later):
        await store.append("other", [NewEvent("o", 1, b"{}")], expected_version=version)
    return LogTree(store, registry)


async def test_a_store_is_checked_against_the_checkpoints_issued_over_it() -> None:
    signer = memory_signer()
    checkpoint = await LogNotary(signer, await log(b"s" * 32)).checkpoint()
    keys = [verifier_key(signer)]

    async def verdict(tree: LogTree) -> str | None:
        result = await check_log_checkpoints(tree, [("cp", checkpoint)], keys, verify_ed25519)
        return result.problem

    assert await verdict(await log(b"s" * 32)) is None
    assert await verdict(await log(b"s" * 32, later=2)) is None  # the log went on: fine
    changed = await verdict(await log(b"s" * 32, discard=b'{"card":"Kh"}'))
    assert changed is not None
    assert "rewritten after the checkpoint" in changed
    assert "removed" in (await verdict(await log(b"s" * 32, events=4)) or "")
    # The blind binds too: the match's stored secret swapped gives other leaves.
    assert await verdict(await log(b"t" * 32)) is not None
    foreign = await check_log_checkpoints(
        await log(b"s" * 32), [("cp", checkpoint)], [verifier_key(memory_signer())], verify_ed25519
    )
    assert foreign.problem == "cp: no valid signature by any of the public keys"


async def test_the_events_a_release_before_the_second_leaf_rule_wrote_keep_the_first() -> None:
    store, registry = InMemoryEventStore(), InMemoryMatchRegistry()
    await registry.create(MATCH, external_ref=None, server_secret=b"s" * 32, seats=[])
    blind = log_blind(b"s" * 32)
    streams = [f"format-match-{MATCH}", f"fairness-{MATCH}", f"match-{MATCH}", "other"]
    for stream in streams:
        await store.append(stream, [NewEvent("e", 1, b"{}")], expected_version=0)
    store.upgrade_leaf_rule()  # as migration 0020 does to an upgraded database
    for stream in streams:
        await store.append(stream, [NewEvent("e", 1, b"{}")], expected_version=1)
    events = await store.read_all()
    # The first rule blinds two prefixes; the second every stream of a match.
    old, new = [NO_BLIND, blind, blind, NO_BLIND], [blind, blind, blind, NO_BLIND]
    expected = Frontier()
    for event, use in zip(events, old + new, strict=True):
        expected.append(event_leaf(event, use))
        if expected.size == 4:
            before = expected.root()

    tree = LogTree(store, registry)
    assert await tree.catch_up({4}) == {4: before}
    assert tree.frontier.root() == expected.root()


class NotMigrated(InMemoryEventStore):
    """A store whose schema predates the second leaf rule."""

    async def every_match_blinded_from(self) -> int | None:
        return None


async def test_a_store_that_predates_the_second_leaf_rule_gets_no_new_checkpoint() -> None:
    store, registry = NotMigrated(), InMemoryMatchRegistry()
    await registry.create(MATCH, external_ref=None, server_secret=b"s" * 32, seats=[])
    await store.append(f"format-match-{MATCH}", [NewEvent("e", 1, b"{}")], expected_version=0)
    signer = memory_signer()
    with pytest.raises(DatabaseUnavailable):
        await LogNotary(signer, LogTree(store, registry)).checkpoint()
    # Its events were all written under the first rule, so that is how they are checked.
    bare = Frontier()
    bare.append(event_leaf((await store.read_all())[0], NO_BLIND))
    note = sign_note(signer, log_checkpoint_text(1, bare.root()))
    verdict = await check_log_checkpoints(
        LogTree(store, registry), [("cp", note)], [verifier_key(signer)], verify_ed25519
    )
    assert verdict.ok, verdict.problem
    assert "schema predates the second" in verdict.render()
