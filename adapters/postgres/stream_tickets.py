"""Stream tickets in PostgreSQL: ``stream_tickets`` (see
``migrations/versions/0009_stream_tickets.py``), aged by the database's clock, so any server
process on the database redeems a ticket another one issued."""

from __future__ import annotations

from typing import Any

from psycopg_pool import AsyncConnectionPool

from service.ports.stream_tickets import TICKET_LIFETIME, TicketHolder


class PostgresStreamTicketStore:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def add(self, ticket_hash: bytes, holder: TicketHolder) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute("DELETE FROM stream_tickets WHERE expires_at <= now()")
            await conn.execute(
                "INSERT INTO stream_tickets (ticket_hash, match_id, seat, expires_at)"
                " VALUES (%s, %s, %s, now() + %s)",
                (ticket_hash, holder.match_id, holder.seat, TICKET_LIFETIME),
            )

    async def redeem(self, ticket_hash: bytes) -> TicketHolder | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM stream_tickets WHERE ticket_hash = %s"
                " RETURNING match_id::text, seat, expires_at > now()",
                (ticket_hash,),
            )
            row = await cur.fetchone()
        if row is None or not row[2]:
            return None
        return TicketHolder(match_id=row[0], seat=row[1])
