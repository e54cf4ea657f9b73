"""Seed commitments in PostgreSQL: ``seed_commitments`` (see
``migrations/versions/0004_seed_commitments.py``), aged by the database's clock."""

from __future__ import annotations

from typing import Any

from psycopg_pool import AsyncConnectionPool

from service.ports.seed_commitments import UNUSED_FOR


class PostgresSeedCommitmentStore:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def add(self, commitment: bytes, server_secret: bytes) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                "DELETE FROM seed_commitments WHERE created_at < now() - %s", (UNUSED_FOR,)
            )
            await conn.execute(
                "INSERT INTO seed_commitments (commitment, server_secret) VALUES (%s, %s)",
                (commitment, server_secret),
            )

    async def claim(self, commitment: bytes) -> bytes | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM seed_commitments WHERE commitment = %s RETURNING server_secret",
                (commitment,),
            )
            row = await cur.fetchone()
        return None if row is None else bytes(row[0])
