"""What the service keeps about a match outside its event stream: the server secret, the
seats' token hashes and entropy, open invites, and receipts of idempotent commands.

None of this is game state; it never reaches a seat except as a seat's own fresh token.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool


class RegisteredSeat(msgspec.Struct, frozen=True):
    seat: int
    token_hash: bytes | None
    entropy: str
    external_player_id: str | None = None  # what tournament software calls this player
    bot: str | None = None  # the level of a seat the server plays (it never has a token)


class RegisteredMatch(msgspec.Struct, frozen=True):
    match_id: str
    external_ref: str | None
    server_secret: bytes
    created_at: datetime
    seats: tuple[RegisteredSeat, ...]
    operator_id: str | None = None  # the operator whose key created the match, if any

    @property
    def full(self) -> bool:
        return all(seat.token_hash is not None or seat.bot is not None for seat in self.seats)

    @property
    def entropy(self) -> list[str]:
        return [seat.entropy for seat in self.seats]


class Receipt(msgspec.Struct, frozen=True):
    """An idempotent command: the request's hash and the version it was decided at."""

    request_hash: bytes
    at_version: int


class MatchRegistry:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create(
        self,
        match_id: str,
        *,
        external_ref: str | None,
        server_secret: bytes,
        seats: list[RegisteredSeat],
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

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> tuple[str, int] | None:
        """Seat the invited player once; (match id, seat), or None if no such open invite."""
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
        return str(match_id), int(seat)

    async def claim_receipt(
        self, match_id: str, seat: int, key: str, request_hash: bytes, at_version: int
    ) -> Receipt:
        """Record the first request under ``key``, or return the one already recorded."""
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "WITH claimed AS ("
                " INSERT INTO command_receipts (match_id, seat, idempotency_key, request_hash,"
                " at_version) VALUES (%(m)s, %(s)s, %(k)s, %(h)s, %(v)s)"
                " ON CONFLICT DO NOTHING RETURNING request_hash, at_version)"
                " SELECT request_hash, at_version FROM claimed"
                " UNION ALL SELECT request_hash, at_version FROM command_receipts"
                " WHERE match_id = %(m)s AND seat = %(s)s AND idempotency_key = %(k)s",
                {"m": match_id, "s": seat, "k": key, "h": request_hash, "v": at_version},
            )
            row = await cur.fetchone()
        if row is None:
            # The conflicting row committed after this statement's snapshot was taken.
            return await self._receipt(match_id, seat, key)
        return Receipt(bytes(row[0]), int(row[1]))

    async def _receipt(self, match_id: str, seat: int, key: str) -> Receipt:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT request_hash, at_version FROM command_receipts "
                "WHERE match_id = %s AND seat = %s AND idempotency_key = %s",
                (match_id, seat, key),
            )
            row = await cur.fetchone()
        assert row is not None, "a receipt that blocked an insert must exist"
        return Receipt(bytes(row[0]), int(row[1]))
