"""Operators: tournament systems with API keys, each key limited to its scopes.

A key is a random secret shown once when it is made (``gin operator create-key``); the server
keeps its SHA-256 hash, as it does for seat tokens. Keys and seat tokens never stand in for
each other: a seat token sent to an operator endpoint is refused as one, and an operator key
opens no seat.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal, get_args

import msgspec
from psycopg_pool import AsyncConnectionPool

from service.errors import (
    MissingOperatorKey,
    MissingScope,
    SeatTokenNotOperatorKey,
    UnknownOperatorKey,
)
from service.matches import tokens

Scope = Literal["matches:create", "feed:read", "webhooks:manage"]
SCOPES: tuple[Scope, ...] = get_args(Scope)

KEY_PREFIX = "gop_"


class Operator(msgspec.Struct, frozen=True):
    """Who a request speaks for: the operator, and the key it came with."""

    operator_id: str
    name: str
    key_id: str
    scopes: tuple[Scope, ...]


class NewKey(msgspec.Struct, frozen=True):
    operator: Operator
    key: str  # shown once; only its hash is stored


class KeyInfo(msgspec.Struct, frozen=True):
    key_id: str
    operator: str
    scopes: list[str]
    created_at: datetime
    revoked_at: datetime | None


def check_scopes(scopes: Iterable[str]) -> tuple[Scope, ...]:
    chosen = tuple(dict.fromkeys(scopes))
    unknown = [scope for scope in chosen if scope not in SCOPES]
    if unknown or not chosen:
        raise ValueError(f"scopes are one or more of {', '.join(SCOPES)}; not {unknown or []}")
    return chosen  # type: ignore[return-value]


class OperatorKeys:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create_key(self, name: str, scopes: Iterable[str]) -> NewKey:
        """A new key for operator ``name`` (created on its first key)."""
        chosen = check_scopes(scopes)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
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
                (key_id, row[0], tokens.secret_hash(key), list(chosen)),
            )
        return NewKey(Operator(row[0], name, key_id, chosen), key)

    async def authenticate(self, key: str | None, scope: Scope) -> Operator:
        """The operator ``key`` belongs to, if it is live and holds ``scope``."""
        if key is None:
            raise MissingOperatorKey("send an operator key as 'Authorization: Bearer <key>'")
        key_hash = tokens.secret_hash(key)
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT o.operator_id::text, o.name, k.key_id::text, k.scopes "
                "FROM operator_keys k JOIN operators o USING (operator_id) "
                "WHERE k.key_hash = %s AND k.revoked_at IS NULL",
                (key_hash,),
            )
            row = await cur.fetchone()
            if row is None:
                seat = await conn.execute(
                    "SELECT 1 FROM match_seats WHERE token_hash = %s", (key_hash,)
                )
                if await seat.fetchone() is not None:
                    raise SeatTokenNotOperatorKey(
                        "this is a seat token: it plays its seat and nothing else"
                    )
                raise UnknownOperatorKey("this operator key is unknown or has been revoked")
        operator = Operator(row[0], row[1], row[2], tuple(row[3]))
        if scope not in operator.scopes:
            raise MissingScope(f"this needs an operator key with the scope {scope}")
        return operator

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
        """Revoke a key for good; False if there is no live key with this id."""
        try:
            key_id = str(uuid.UUID(key_id))
        except ValueError:
            return False
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE operator_keys SET revoked_at = now() "
                "WHERE key_id = %s AND revoked_at IS NULL",
                (key_id,),
            )
            return bool(cur.rowcount == 1)
