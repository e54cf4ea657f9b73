"""Operator keys' rules over the in-memory stores: a key opens what its scopes allow, a seat
token is refused as one, and an unknown or revoked key as unknown."""

from __future__ import annotations

import pytest

from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.operator_keys import InMemoryOperatorKeyStore
from service.errors import (
    MissingOperatorKey,
    MissingScope,
    SeatTokenNotOperatorKey,
    UnknownOperatorKey,
)
from service.matches import tokens
from service.ports.match_registry import RegisteredSeat
from service.tournament.operators import KEY_PREFIX, OperatorKeys


@pytest.fixture
def registry() -> InMemoryMatchRegistry:
    return InMemoryMatchRegistry()


@pytest.fixture
def keys(registry: InMemoryMatchRegistry) -> OperatorKeys:
    return OperatorKeys(InMemoryOperatorKeyStore(), registry)


async def test_a_key_opens_its_scopes_only(keys: OperatorKeys) -> None:
    made = await keys.create_key("Cup", ["feed:read", "feed:read"])

    assert made.key.startswith(KEY_PREFIX)
    assert made.operator.scopes == ("feed:read",)
    assert await keys.authenticate(made.key, "feed:read") == made.operator
    with pytest.raises(MissingScope):
        await keys.authenticate(made.key, "webhooks:manage")


async def test_unknown_scopes_make_no_key(keys: OperatorKeys) -> None:
    with pytest.raises(ValueError, match="scopes are one or more of"):
        await keys.create_key("Cup", ["feed:write"])
    with pytest.raises(ValueError, match="scopes are one or more of"):
        await keys.create_key("Cup", [])
    assert await keys.list_keys() == []


async def test_a_seat_token_is_refused_as_one(
    keys: OperatorKeys, registry: InMemoryMatchRegistry
) -> None:
    token = tokens.new_token()
    seats = [
        RegisteredSeat(0, tokens.secret_hash(token), ""),
        RegisteredSeat(1, None, "", bot="simple"),
    ]
    await registry.create("m", external_ref=None, server_secret=b"s" * 32, seats=seats)

    with pytest.raises(SeatTokenNotOperatorKey):
        await keys.authenticate(token, "feed:read")
    with pytest.raises(UnknownOperatorKey):
        await keys.authenticate(tokens.new_token(), "feed:read")
    with pytest.raises(MissingOperatorKey):
        await keys.authenticate(None, "feed:read")


async def test_a_revoked_key_is_unknown(keys: OperatorKeys) -> None:
    made = await keys.create_key("Cup", ["feed:read"])

    assert await keys.revoke_key(made.operator.key_id)

    with pytest.raises(UnknownOperatorKey):
        await keys.authenticate(made.key, "feed:read")
    (listed,) = await keys.list_keys()
    assert listed.revoked_at is not None
