"""Commitments made before a match exists, so a creator's entropy comes after the server's.

``POST /commitments`` draws a match secret and answers with chain 1's commitment; the creator
then sends that commitment with its entropy in ``POST /matches``, and the match takes the
secret. A commitment serves one match, and one nobody used is forgotten after a day.
"""

from __future__ import annotations

from typing import Any

import msgspec
from psycopg_pool import AsyncConnectionPool

from service.errors import UnknownCommitment
from service.fairness.seeds import CHAIN_LINKS, SCHEME, commitment, new_secret

UNUSED_FOR = "1 day"


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    """Chain 1's commitment of a future match's seeds; send ``commitment`` to create it."""

    scheme: str
    chain_links: int
    commitment: str


class SeedCommitments:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create(self) -> Commitment:
        secret = new_secret()
        value = commitment(secret, 1, CHAIN_LINKS)
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                f"DELETE FROM seed_commitments WHERE created_at < now() - interval '{UNUSED_FOR}'"
            )
            await conn.execute(
                "INSERT INTO seed_commitments (commitment, server_secret) VALUES (%s, %s)",
                (value, secret),
            )
        return Commitment(scheme=SCHEME, chain_links=CHAIN_LINKS, commitment=value.hex())

    async def claim(self, value: str) -> bytes:
        """The secret behind ``value`` (hex), which no other match may then take."""
        try:
            key = bytes.fromhex(value)
        except ValueError:
            raise UnknownCommitment("a commitment is 64 hex digits") from None
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM seed_commitments WHERE commitment = %s RETURNING server_secret",
                (key,),
            )
            row = await cur.fetchone()
        if row is None:
            raise UnknownCommitment(
                "this commitment is unknown, already used by a match, or older than a day"
            )
        return bytes(row[0])
