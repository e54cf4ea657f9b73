"""The operator key store contract: every adapter passes these, unchanged."""

from __future__ import annotations

import hashlib
import uuid

from service.ports.operator_keys import Operator, OperatorKeyStore


def digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


async def test_a_new_key_is_live_for_its_operator_and_scopes(
    operator_keys: OperatorKeyStore,
) -> None:
    made = await operator_keys.add_key("Cup", digest("key"), ["feed:read", "matches:create"])

    assert (made.name, made.scopes) == ("Cup", ("feed:read", "matches:create"))
    assert str(uuid.UUID(made.key_id)) == made.key_id
    assert str(uuid.UUID(made.operator_id)) == made.operator_id
    assert await operator_keys.live_key(digest("key")) == made


async def test_an_unknown_key_is_not_live(operator_keys: OperatorKeyStore) -> None:
    await operator_keys.add_key("Cup", digest("key"), ["feed:read"])

    assert await operator_keys.live_key(digest("another key")) is None


async def test_an_operator_is_made_once_and_keeps_every_key(
    operator_keys: OperatorKeyStore,
) -> None:
    first = await operator_keys.add_key("Cup", digest("one"), ["feed:read"])
    second = await operator_keys.add_key("Cup", digest("two"), ["webhooks:manage"])
    other = await operator_keys.add_key("League", digest("three"), ["feed:read"])

    assert first.operator_id == second.operator_id != other.operator_id
    assert len({first.key_id, second.key_id, other.key_id}) == 3
    assert await operator_keys.live_key(digest("one")) == first
    assert await operator_keys.live_key(digest("two")) == Operator(
        first.operator_id, "Cup", second.key_id, ("webhooks:manage",)
    )


async def test_keys_are_listed_by_operator_then_age(operator_keys: OperatorKeyStore) -> None:
    league = await operator_keys.add_key("League", digest("one"), ["feed:read"])
    cup_old = await operator_keys.add_key("Cup", digest("two"), ["webhooks:manage", "feed:read"])
    cup_new = await operator_keys.add_key("Cup", digest("three"), ["matches:create"])

    keys = await operator_keys.list_keys()

    assert [(k.key_id, k.operator, k.scopes, k.revoked_at) for k in keys] == [
        (cup_old.key_id, "Cup", ["webhooks:manage", "feed:read"], None),
        (cup_new.key_id, "Cup", ["matches:create"], None),
        (league.key_id, "League", ["feed:read"], None),
    ]
    assert keys[0].created_at <= keys[1].created_at
    assert all(k.created_at.tzinfo is not None for k in keys)


async def test_a_revoked_key_is_refused_and_listed_as_revoked(
    operator_keys: OperatorKeyStore,
) -> None:
    revoked = await operator_keys.add_key("Cup", digest("old"), ["feed:read"])
    kept = await operator_keys.add_key("Cup", digest("new"), ["feed:read"])

    assert await operator_keys.revoke_key(revoked.key_id)

    assert await operator_keys.live_key(digest("old")) is None
    assert await operator_keys.live_key(digest("new")) == kept
    listed = {k.key_id: k for k in await operator_keys.list_keys()}
    revoked_at = listed[revoked.key_id].revoked_at
    assert revoked_at is not None
    assert revoked_at >= listed[revoked.key_id].created_at
    assert listed[kept.key_id].revoked_at is None


async def test_a_key_is_revoked_once(operator_keys: OperatorKeyStore) -> None:
    made = await operator_keys.add_key("Cup", digest("key"), ["feed:read"])
    assert await operator_keys.revoke_key(made.key_id)

    assert not await operator_keys.revoke_key(made.key_id)


async def test_revoking_an_unknown_key_id_revokes_nothing(operator_keys: OperatorKeyStore) -> None:
    made = await operator_keys.add_key("Cup", digest("key"), ["feed:read"])

    assert not await operator_keys.revoke_key(str(uuid.uuid4()))
    assert not await operator_keys.revoke_key("not-a-key-id")
    assert await operator_keys.live_key(digest("key")) == made
