"""Commitments made before a match exists, so a creator's entropy comes after the server's.

``POST /commitments`` draws a match secret and answers with chain 1's commitment; the creator
then sends that commitment with its entropy in ``POST /matches``, and the match takes the
secret. A commitment serves one match, and one nobody used is forgotten after a day.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from service.errors import UnknownCommitment
from service.fairness.seeds import CHAIN_LINKS, SCHEME, commitment, new_secret
from service.ports.seed_commitments import SeedCommitmentStore


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    """Chain 1's commitment of a future match's seeds; send ``commitment`` to create it."""

    scheme: str
    chain_links: int
    commitment: str


class SeedCommitments:
    def __init__(
        self, store: SeedCommitmentStore, *, new_secret: Callable[[], bytes] = new_secret
    ) -> None:
        """``new_secret`` draws each match secret: the OS's randomness unless a caller needs
        the same matches every run (the verifier's tests play matches again by seed)."""
        self._store = store
        self._new_secret = new_secret

    async def create(self) -> Commitment:
        secret = self._new_secret()
        value = commitment(secret, 1, CHAIN_LINKS)
        await self._store.add(value, secret)
        return Commitment(scheme=SCHEME, chain_links=CHAIN_LINKS, commitment=value.hex())

    async def claim(self, value: str) -> bytes:
        """The secret behind ``value`` (hex), which no other match may then take."""
        try:
            key = bytes.fromhex(value)
        except ValueError:
            raise UnknownCommitment("a commitment is 64 hex digits") from None
        secret = await self._store.claim(key)
        if secret is None:
            raise UnknownCommitment(
                "this commitment is unknown, already used by a match, or older than a day"
            )
        return secret
