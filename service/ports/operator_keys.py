"""The operator key port: operators (tournament systems) and their API keys, kept as hashes.

An operator is made with its first key and known by its name. A key is live until revoked,
and a revoked key stays listed but opens nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol, get_args

import msgspec

Scope = Literal[
    "matches:create",
    "matches:read",
    "matches:adjudicate",
    "feed:read",
    "feed:all",
    "webhooks:manage",
    "players:relay",
]
SCOPES: tuple[Scope, ...] = get_args(Scope)


class Operator(msgspec.Struct, frozen=True):
    """Who a request speaks for: the operator, and the key it came with."""

    operator_id: str
    name: str
    key_id: str
    scopes: tuple[Scope, ...]


class KeyInfo(msgspec.Struct, frozen=True):
    key_id: str
    operator: str
    scopes: list[str]
    created_at: datetime
    revoked_at: datetime | None


class OperatorKeyStore(Protocol):
    async def add_key(self, name: str, key_hash: bytes, scopes: Sequence[Scope]) -> Operator:
        """A new live key (its id a fresh UUID) for operator ``name``, made on its first key."""
        ...

    async def live_key(self, key_hash: bytes) -> Operator | None:
        """The operator and key with this hash, if the key has not been revoked."""
        ...

    async def list_keys(self) -> list[KeyInfo]:
        """Every key, revoked ones too, by operator name and then by age."""
        ...

    async def revoke_key(self, key_id: str) -> bool:
        """Revoke a key for good; False if no live key has this id (any string may be asked)."""
        ...
