"""Operator keys in a Python process, for tests and quick experiments.

No method awaits, so on one event loop each call is atomic (a key is revoked once).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import msgspec

from adapters.memory.clock import Clock, utc_now
from service.ports.operator_keys import KeyInfo, Operator, Scope


class _Key(msgspec.Struct):
    operator: Operator
    key_hash: bytes
    created_at: datetime
    revoked_at: datetime | None = None


class InMemoryOperatorKeyStore:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._operator_ids: dict[str, str] = {}  # by name
        self._keys: dict[str, _Key] = {}  # by key id, oldest first
        self._by_hash: dict[bytes, str] = {}

    async def add_key(self, name: str, key_hash: bytes, scopes: Sequence[Scope]) -> Operator:
        if key_hash in self._by_hash:
            raise ValueError("a key with this hash exists already")
        operator_id = self._operator_ids.setdefault(name, str(uuid.uuid4()))
        operator = Operator(operator_id, name, str(uuid.uuid4()), tuple(scopes))
        self._keys[operator.key_id] = _Key(operator, key_hash, self._clock())
        self._by_hash[key_hash] = operator.key_id
        return operator

    async def live_key(self, key_hash: bytes) -> Operator | None:
        key_id = self._by_hash.get(key_hash)
        if key_id is None or self._keys[key_id].revoked_at is not None:
            return None
        return self._keys[key_id].operator

    async def list_keys(self) -> list[KeyInfo]:
        # A stable sort: keys of one operator made at the same instant stay oldest first.
        keys = sorted(self._keys.values(), key=lambda k: (k.operator.name, k.created_at))
        return [
            KeyInfo(
                k.operator.key_id,
                k.operator.name,
                list(k.operator.scopes),
                k.created_at,
                k.revoked_at,
            )
            for k in keys
        ]

    async def revoke_key(self, key_id: str) -> bool:
        key = self._keys.get(key_id)
        if key is None or key.revoked_at is not None:
            return False
        key.revoked_at = self._clock()
        return True
