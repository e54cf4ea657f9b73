"""Idempotent creations in PostgreSQL: ``match_creations`` (see
``migrations/versions/0011_tournament_rounds.py``), dated by the database's clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from psycopg_pool import AsyncConnectionPool

from service.ports.match_creations import PastCreation


class PostgresMatchCreations:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def claim(
        self, key_hash: bytes, fingerprint: bytes, salt: bytes, hold: timedelta
    ) -> PastCreation | None:
        async with self._pool.connection() as conn:
            # Taken over only if its creation never finished, its claim has lapsed, and it is
            # the same request: a lapsed creation may have made part of what it was asked.
            cur = await conn.execute(
                "INSERT INTO match_creations (key_hash, fingerprint, salt, claimed_until) "
                "VALUES (%s, %s, %s, now() + %s) ON CONFLICT (key_hash) DO UPDATE "
                "SET fingerprint = EXCLUDED.fingerprint, salt = EXCLUDED.salt, "
                "claimed_until = EXCLUDED.claimed_until "
                "WHERE match_creations.expires_at IS NULL "
                "AND match_creations.claimed_until < now() "
                "AND match_creations.fingerprint = EXCLUDED.fingerprint RETURNING 1",
                (key_hash, fingerprint, salt, hold),
            )
            if await cur.fetchone() is not None:
                return None
            cur = await conn.execute(
                "SELECT fingerprint, salt, CASE WHEN expires_at > now() THEN sealed END, "
                "CASE WHEN expires_at IS NULL THEN 'running' "
                "WHEN expires_at > now() THEN 'done' ELSE 'expired' END "
                "FROM match_creations WHERE key_hash = %s",
                (key_hash,),
            )
            row = await cur.fetchone()
        if row is None:  # released between the two statements: a retry may claim it
            return PastCreation(fingerprint=fingerprint, salt=salt, state="running")
        return PastCreation(
            fingerprint=bytes(row[0]),
            salt=bytes(row[1]),
            sealed=None if row[2] is None else bytes(row[2]),
            state=row[3],
        )

    async def finish(self, key_hash: bytes, sealed: bytes, window: timedelta) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                "UPDATE match_creations SET sealed = %s, expires_at = now() + %s, "
                "claimed_until = NULL WHERE key_hash = %s",
                (sealed, window, key_hash),
            )
            await conn.execute(
                "UPDATE match_creations SET sealed = NULL "
                "WHERE sealed IS NOT NULL AND expires_at <= now()"
            )

    async def release(self, key_hash: bytes) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "DELETE FROM match_creations WHERE key_hash = %s AND expires_at IS NULL",
                (key_hash,),
            )
