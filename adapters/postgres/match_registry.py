"""The match registry in PostgreSQL: ``matches``, ``match_seats`` and
``match_invites`` (see ``migrations/versions/0002_matches.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from service.ports.match_registry import (
    AcceptedInvite,
    RegisteredMatch,
    RegisteredSeat,
)


class PostgresMatchRegistry:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create(
        self,
        match_id: str,
        *,
        external_ref: str | None,
        server_secret: bytes,
        seats: Sequence[RegisteredSeat],
        invite_code_hash: bytes | None = None,
        invite_seat: int | None = None,
        operator_id: str | None = None,
    ) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO matches (match_id, external_ref, server_secret, operator_id) "
                "VALUES (%s, %s, %s, %s)",
                (match_id, external_ref, server_secret, operator_id),
            )
            async with conn.cursor() as cur:
                await cur.executemany(
                    "INSERT INTO match_seats "
                    "(match_id, seat, token_hash, entropy, external_player_id, bot) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [
                        (match_id, s.seat, s.token_hash, s.entropy, s.external_player_id, s.bot)
                        for s in seats
                    ],
                )
            if invite_code_hash is not None:
                await conn.execute(
                    "INSERT INTO match_invites (code_hash, match_id, seat) VALUES (%s, %s, %s)",
                    (invite_code_hash, match_id, invite_seat),
                )

    async def get(self, match_id: str) -> RegisteredMatch | None:
        async with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "SELECT m.match_id::text AS match_id, m.external_ref, m.server_secret, "
                "m.created_at, m.operator_id::text AS operator_id, s.seat, s.token_hash, "
                "s.entropy, s.external_player_id, s.bot "
                "FROM matches m JOIN match_seats s USING (match_id) "
                "WHERE m.match_id = %s ORDER BY s.seat",
                (match_id,),
            )
            rows = await cur.fetchall()
        if not rows:
            return None
        first = rows[0]
        return RegisteredMatch(
            match_id=first["match_id"],
            external_ref=first["external_ref"],
            server_secret=bytes(first["server_secret"]),
            created_at=first["created_at"],
            seats=tuple(
                RegisteredSeat(
                    row["seat"],
                    None if row["token_hash"] is None else bytes(row["token_hash"]),
                    row["entropy"],
                    row["external_player_id"],
                    row["bot"],
                )
                for row in rows
            ),
            operator_id=first["operator_id"],
        )

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO match_invites (code_hash, match_id, seat) VALUES (%s, %s, %s)",
                (code_hash, match_id, seat),
            )

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        async with self._pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "UPDATE match_invites SET accepted_at = now() "
                "WHERE code_hash = %s AND accepted_at IS NULL RETURNING match_id::text, seat",
                (code_hash,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            match_id, seat = row
            await conn.execute(
                "UPDATE match_seats SET token_hash = %s, entropy = %s "
                "WHERE match_id = %s AND seat = %s",
                (token_hash, entropy, match_id, seat),
            )
        return AcceptedInvite(str(match_id), int(seat))

    async def matches_with_bots(self) -> set[str]:
        # One partial index, ``match_seats_bots``, holds exactly these rows.
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT DISTINCT match_id::text FROM match_seats WHERE bot IS NOT NULL"
            )
            return {row[0] for row in await cur.fetchall()}

    async def is_seat_token(self, token_hash: bytes) -> bool:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT 1 FROM match_seats WHERE token_hash = %s", (token_hash,)
            )
            return await cur.fetchone() is not None
