"""Seed commitments in a Python process, aged by a clock the caller may pass.

No method awaits, so on one event loop a commitment is claimed once even by claims at once.
"""

from __future__ import annotations

from datetime import datetime

from adapters.memory.clock import Clock, utc_now
from service.ports.seed_commitments import UNUSED_FOR


class InMemorySeedCommitmentStore:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._secrets: dict[bytes, tuple[bytes, datetime]] = {}

    async def add(self, commitment: bytes, server_secret: bytes) -> None:
        now = self._clock()
        self._secrets = {
            kept: (secret, made)
            for kept, (secret, made) in self._secrets.items()
            if made >= now - UNUSED_FOR
        }
        if commitment in self._secrets:
            raise ValueError("this commitment is already kept")
        self._secrets[commitment] = (server_secret, now)

    async def claim(self, commitment: bytes) -> bytes | None:
        kept = self._secrets.pop(commitment, None)
        return None if kept is None else kept[0]
