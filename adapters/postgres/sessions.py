"""Sessions in PostgreSQL: ``account_sessions`` and ``account_spent_refresh`` (migration
0023), aged by the database's clock, so any server process refreshes a session another one
started.

A refresh is one transaction: the session's row is locked by the ``UPDATE`` that rotates it, so
two refreshes with the same token at once trade it once; the loser finds it spent.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from service.ports.players import Player
from service.ports.sessions import (
    Holder,
    NewSession,
    Refreshed,
    RefreshRefusal,
    Rotation,
    SessionInfo,
)

# The player and the session in one round trip, as a credential finds its player.
HOLDER = """
SELECT p.player_id::text, p.display_name, p.created_at, s.session_id::text,
    s.access_expires_at <= now()
FROM account_sessions s JOIN players p USING (player_id)
WHERE s.access_hash = %s AND s.revoked_at IS NULL
"""

ROTATE = """
UPDATE account_sessions SET access_hash = %s, access_expires_at = now() + %s,
    refresh_hash = %s, refresh_expires_at = now() + %s, refreshed_at = now()
WHERE refresh_hash = %s AND revoked_at IS NULL AND refresh_expires_at > now()
RETURNING session_id::text, player_id::text
"""

REVOKE_FAMILY = """
UPDATE account_sessions SET revoked_at = now()
WHERE session_id = (SELECT session_id FROM account_spent_refresh WHERE refresh_hash = %s)
    AND revoked_at IS NULL
"""

SPENT = "SELECT 1 FROM account_spent_refresh WHERE refresh_hash = %s"

WHY_NOT = """
SELECT revoked_at IS NOT NULL, refresh_expires_at <= now() FROM account_sessions
WHERE refresh_hash = %s
"""


class PostgresSessions:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def start(self, session: NewSession) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO account_sessions (session_id, player_id, access_hash,"
                " access_expires_at, refresh_hash, refresh_expires_at, signed_in_with)"
                " VALUES (%s, %s, %s, now() + %s, %s, now() + %s, %s)",
                (
                    session.session_id,
                    session.player_id,
                    session.access_hash,
                    session.access_lifetime,
                    session.refresh_hash,
                    session.refresh_lifetime,
                    session.signed_in_with,
                ),
            )

    async def holder(self, access_hash: bytes) -> Holder | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(HOLDER, (access_hash,))
            row = await cur.fetchone()
        if row is None:
            return None
        return Holder(Player(row[0], row[1], row[2]), row[3], bool(row[4]))

    async def refresh(self, refresh_hash: bytes, rotation: Rotation) -> Refreshed | RefreshRefusal:
        async with self._pool.connection() as conn:
            async with conn.transaction():
                cur = await conn.execute(
                    ROTATE,
                    (
                        rotation.access_hash,
                        rotation.access_lifetime,
                        rotation.refresh_hash,
                        rotation.refresh_lifetime,
                        refresh_hash,
                    ),
                )
                row = await cur.fetchone()
                if row is not None:
                    await conn.execute(
                        "INSERT INTO account_spent_refresh (refresh_hash, session_id)"
                        " VALUES (%s, %s)",
                        (refresh_hash, row[0]),
                    )
                    return Refreshed(row[0], row[1])
            # Not traded: find out why, outside the rotation's transaction.
            if (await (await conn.execute(SPENT, (refresh_hash,))).fetchone()) is not None:
                await conn.execute(REVOKE_FAMILY, (refresh_hash,))
                return "reused"
            why = await (await conn.execute(WHY_NOT, (refresh_hash,))).fetchone()
        if why is None:
            return "unknown"
        return "revoked" if why[0] else "expired"

    async def revoke(self, player_id: str, session_id: str) -> bool:
        async with self._pool.connection() as conn:
            try:
                cur = await conn.execute(
                    "UPDATE account_sessions SET revoked_at = now()"
                    " WHERE session_id = %s AND player_id = %s AND revoked_at IS NULL",
                    (session_id, player_id),
                )
            except psycopg.errors.InvalidTextRepresentation:
                return False  # not a session id at all
            return bool(cur.rowcount == 1)

    async def revoke_all(self, player_id: str) -> int:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE account_sessions SET revoked_at = now()"
                " WHERE player_id = %s AND revoked_at IS NULL",
                (player_id,),
            )
            return int(cur.rowcount)

    async def live(self, player_id: str) -> list[SessionInfo]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT session_id::text, signed_in_with, created_at, refreshed_at"
                " FROM account_sessions WHERE player_id = %s AND revoked_at IS NULL"
                " AND refresh_expires_at > now() ORDER BY created_at, session_id",
                (player_id,),
            )
            return [
                SessionInfo(session_id=s, signed_in_with=w, created_at=c, refreshed_at=r)
                for s, w, c, r in await cur.fetchall()
            ]
