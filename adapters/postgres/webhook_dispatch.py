"""The dispatcher's turn in PostgreSQL: one transaction that holds the ``webhook_cursor`` row.

The row is locked ``FOR UPDATE SKIP LOCKED``: a second process finds no row and skips its turn
instead of waiting. Deliveries are inserted ``ON CONFLICT DO NOTHING`` on
``UNIQUE (webhook_id, event_position)``, and the cursor moves in the same transaction.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

from psycopg import AsyncConnection

from adapters.postgres.event_store import Pool
from service.ports.webhook_dispatch import LiveSubscription, NewDelivery, OperatorMatch

LOCK_CURSOR = "SELECT position FROM webhook_cursor WHERE name = 'dispatcher' FOR UPDATE SKIP LOCKED"

MOVE_CURSOR = """
UPDATE webhook_cursor SET position = %s, updated_at = now() WHERE name = 'dispatcher'
"""

MATCHES = """
SELECT m.match_id::text, m.operator_id::text, m.external_ref,
       array_agg(s.external_player_id ORDER BY s.seat), m.round_id::text
FROM matches m JOIN match_seats s USING (match_id)
WHERE m.match_id = ANY(%s::uuid[]) AND m.operator_id IS NOT NULL
GROUP BY m.match_id
"""

WEBHOOKS = """
SELECT webhook_id::text, operator_id::text, events FROM webhooks
WHERE operator_id = ANY(%s::uuid[]) AND deleted_at IS NULL
"""

INSERT_DELIVERY = """
INSERT INTO webhook_deliveries
    (webhook_id, match_id, event_position, event_version, kind, payload, player_id)
VALUES (%s, %s, %s, %s, %s, %s, %s)
ON CONFLICT ON CONSTRAINT webhook_deliveries_once DO NOTHING
"""


async def insert_deliveries(conn: AsyncConnection[Any], deliveries: Sequence[NewDelivery]) -> None:
    """Add each, unless its webhook has one for the event position and player already."""
    if not deliveries:
        return
    async with conn.cursor() as cursor:
        await cursor.executemany(
            INSERT_DELIVERY,
            [
                (
                    d.webhook_id,
                    d.match_id,
                    d.event_position,
                    d.event_version,
                    d.kind,
                    d.payload,
                    d.player_id,
                )
                for d in deliveries
            ],
        )


class PostgresDispatchTurn:
    def __init__(self, conn: AsyncConnection[Any], cursor: int) -> None:
        self._conn = conn
        self._cursor = cursor

    @property
    def cursor(self) -> int:
        return self._cursor

    async def operator_matches(self, match_ids: Collection[str]) -> dict[str, OperatorMatch]:
        cur = await self._conn.execute(MATCHES, (sorted(match_ids),))
        return {
            match_id: OperatorMatch(operator_id, external_ref, list(players), round_id)
            for match_id, operator_id, external_ref, players, round_id in await cur.fetchall()
        }

    async def live_subscriptions(self, operator_ids: Collection[str]) -> list[LiveSubscription]:
        cur = await self._conn.execute(WEBHOOKS, (sorted(operator_ids),))
        return [
            LiveSubscription(webhook_id, operator_id, list(events))
            for webhook_id, operator_id, events in await cur.fetchall()
        ]

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        await insert_deliveries(self._conn, deliveries)

    async def move_cursor(self, position: int) -> None:
        await self._conn.execute(MOVE_CURSOR, (position,))
        self._cursor = position


class PostgresWebhookDispatch:
    def __init__(self, pool: Pool) -> None:
        """``pool`` hands out autocommit connections; a turn opens a transaction of its own."""
        self._pool = pool

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[PostgresDispatchTurn | None]:
        async with self._pool.connection() as conn, conn.transaction():
            row = await (await conn.execute(LOCK_CURSOR)).fetchone()
            yield None if row is None else PostgresDispatchTurn(conn, row[0])
