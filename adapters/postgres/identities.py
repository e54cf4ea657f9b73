"""Identities in PostgreSQL: ``account_identities`` (migration 0023).

A removal locks the player's row first, so two removals of a player's last two identities at
once run one after the other and the second finds one left.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from service.ports.identities import (
    DuplicateIdentity,
    Identity,
    IdentityKind,
    Removal,
)

COLUMNS = "identity_id::text, player_id::text, kind, issuer, subject, secret_hash, created_at"


def _identity(row: tuple[Any, ...]) -> Identity:
    return Identity(
        identity_id=row[0],
        player_id=row[1],
        kind=row[2],
        issuer=row[3],
        subject=row[4],
        secret_hash=row[5],
        created_at=row[6],
    )


class PostgresIdentities:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def find(self, kind: IdentityKind, issuer: str, subject: str) -> Identity | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT {COLUMNS} FROM account_identities"
                " WHERE kind = %s AND issuer = %s AND subject = %s",
                (kind, issuer, subject),
            )
            row = await cur.fetchone()
        return None if row is None else _identity(row)

    async def add(self, identity: Identity) -> Identity:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(
                    "INSERT INTO account_identities"
                    " (identity_id, player_id, kind, issuer, subject, secret_hash)"
                    f" VALUES (%s, %s, %s, %s, %s, %s) RETURNING {COLUMNS}",
                    (
                        identity.identity_id,
                        identity.player_id,
                        identity.kind,
                        identity.issuer,
                        identity.subject,
                        identity.secret_hash,
                    ),
                )
                row = await cur.fetchone()
        except psycopg.errors.UniqueViolation:
            raise DuplicateIdentity(identity.kind) from None
        assert row is not None
        return _identity(row)

    async def of_player(self, player_id: str) -> list[Identity]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT {COLUMNS} FROM account_identities WHERE player_id = %s"
                " ORDER BY created_at, identity_id",
                (player_id,),
            )
            return [_identity(row) for row in await cur.fetchall()]

    async def remove(self, player_id: str, identity_id: str) -> Removal:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                "SELECT 1 FROM players WHERE player_id = %s FOR NO KEY UPDATE", (player_id,)
            )
            cur = await conn.execute(
                "SELECT identity_id::text FROM account_identities WHERE player_id = %s",
                (player_id,),
            )
            mine = [row[0] for row in await cur.fetchall()]
            if identity_id not in mine:
                return "unknown"
            if len(mine) == 1:
                return "last"
            await conn.execute(
                "DELETE FROM account_identities WHERE identity_id = %s", (identity_id,)
            )
            return "removed"
