"""Idempotent creations in a Python process, for tests; every call is atomic on one loop."""

from __future__ import annotations

from datetime import datetime, timedelta

import msgspec

from adapters.memory.clock import Clock, utc_now
from service.ports.match_creations import PastCreation


class _Row(msgspec.Struct):
    fingerprint: bytes
    salt: bytes
    claimed_until: datetime | None
    expires_at: datetime | None = None
    sealed: bytes | None = None


class InMemoryMatchCreations:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._rows: dict[bytes, _Row] = {}

    async def claim(
        self, key_hash: bytes, fingerprint: bytes, salt: bytes, hold: timedelta
    ) -> PastCreation | None:
        now = self._clock()
        row = self._rows.get(key_hash)
        lapsed = (
            row is not None
            and row.expires_at is None
            and row.claimed_until is not None
            and row.claimed_until < now
            and row.fingerprint == fingerprint
        )
        if row is None or lapsed:
            self._rows[key_hash] = _Row(fingerprint, salt, now + hold)
            return None
        assert row is not None
        if row.expires_at is None:
            return PastCreation(fingerprint=row.fingerprint, salt=row.salt, state="running")
        if row.expires_at <= now:
            return PastCreation(fingerprint=row.fingerprint, salt=row.salt, state="expired")
        return PastCreation(
            fingerprint=row.fingerprint, salt=row.salt, state="done", sealed=row.sealed
        )

    async def finish(self, key_hash: bytes, sealed: bytes, window: timedelta) -> None:
        now = self._clock()
        row = self._rows[key_hash]
        row.sealed, row.expires_at, row.claimed_until = sealed, now + window, None
        for other in self._rows.values():
            if other.expires_at is not None and other.expires_at <= now:
                other.sealed = None

    async def release(self, key_hash: bytes) -> None:
        row = self._rows.get(key_hash)
        if row is not None and row.expires_at is None:
            del self._rows[key_hash]

    def sealed_answers(self) -> list[bytes]:
        """Every sealed answer still kept (for tests of the window)."""
        return [row.sealed for row in self._rows.values() if row.sealed is not None]
