"""The match creation port: what the service remembers of each ``Idempotency-Key`` sent with a
creation, so a retry gets the first answer back instead of a second match.

Keys are kept only as hashes, and answers only sealed (encrypted by the use case under a key
derived from the Idempotency-Key, which is never stored) and only for a window: once it is
over, the sealed answer is wiped and only the hash and fingerprint remain.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal, Protocol

import msgspec

CreationState = Literal["running", "done", "expired"]


class PastCreation(msgspec.Struct, frozen=True, kw_only=True):
    """What an earlier request with the same key left: ``sealed`` only while ``done``."""

    fingerprint: bytes
    salt: bytes
    state: CreationState
    sealed: bytes | None = None


class MatchCreations(Protocol):
    async def claim(
        self, key_hash: bytes, fingerprint: bytes, salt: bytes, hold: timedelta
    ) -> PastCreation | None:
        """Claim ``key_hash`` for a creation that takes at most ``hold``: None if this call
        claimed it (a new key, or the lapsed claim of a creation of the same ``fingerprint``
        that never finished: the caller then finishes what that one began),
        otherwise what the earlier request left, as of now."""
        ...

    async def finish(self, key_hash: bytes, sealed: bytes, window: timedelta) -> None:
        """Keep the sealed answer of a claimed creation for ``window`` from now, and wipe every
        sealed answer whose window is over."""
        ...

    async def release(self, key_hash: bytes) -> None:
        """Forget the claim of a creation that failed (it created nothing)."""
        ...
