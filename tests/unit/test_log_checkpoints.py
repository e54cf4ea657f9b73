"""Log checkpoints over the in-memory store: issued, checked, and every way a store can stop
agreeing with one (an event changed, removed, or another match's secret) is named."""

from __future__ import annotations

from adapters.ed25519_signer import verify_ed25519
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.signer import memory_signer
from service.audit.log_checkpoints import LogNotary, LogTree, check_log_checkpoints
from service.audit.notes import verifier_key
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
