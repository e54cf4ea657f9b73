"""Operator keys in PostgreSQL: ``operators`` and ``operator_keys`` (see
``migrations/versions/0003_tournament.py``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, cast

from psycopg_pool import AsyncConnectionPool

from service.ports.operator_keys import KeyInfo, Operator, Scope


class PostgresOperatorKeyStore:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def add_key(self, name: str, key_hash: bytes, scopes: Sequence[Scope]) -> Operator:
        key_id = str(uuid.uuid4())
        async with self._pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "INSERT INTO operators (operator_id, name) VALUES (%s, %s) "
                "ON CONFLICT (name) DO UPDATE SET name = excluded.name "
                "RETURNING operator_id::text",
                (str(uuid.uuid4()), name),
            )
            row = await cur.fetchone()
            assert row is not None
            await conn.execute(
                "INSERT INTO operator_keys (key_id, operator_id, key_hash, scopes) "
                "VALUES (%s, %s, %s, %s)",
                (key_id, row[0], key_hash, list(scopes)),
            )
        return Operator(row[0], name, key_id, tuple(scopes))

    async def live_key(self, key_hash: bytes) -> Operator | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT o.operator_id::text, o.name, k.key_id::text, k.scopes "
                "FROM operator_keys k JOIN operators o USING (operator_id) "
                "WHERE k.key_hash = %s AND k.revoked_at IS NULL",
                (key_hash,),
            )
            row = await cur.fetchone()
        if row is None:
            return None
        return Operator(row[0], row[1], row[2], cast(tuple[Scope, ...], tuple(row[3])))

    async def list_keys(self) -> list[KeyInfo]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT k.key_id::text, o.name, k.scopes, k.created_at, k.revoked_at "
                "FROM operator_keys k JOIN operators o USING (operator_id) "
                "ORDER BY o.name, k.created_at"
            )
            rows = await cur.fetchall()
        return [KeyInfo(row[0], row[1], list(row[2]), row[3], row[4]) for row in rows]

    async def revoke_key(self, key_id: str) -> bool:
        try:
            key_id = str(uuid.UUID(key_id))
        except ValueError:
            return False  # the column is a uuid: this string names no key
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE operator_keys SET revoked_at = now() "
                "WHERE key_id = %s AND revoked_at IS NULL",
                (key_id,),
            )
            return bool(cur.rowcount == 1)
