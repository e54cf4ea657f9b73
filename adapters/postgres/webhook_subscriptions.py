"""Webhook subscriptions in PostgreSQL: ``webhooks`` (soft-deleted by ``deleted_at``), and the
read side of ``webhook_deliveries`` with each delivery's ``webhook_attempts``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec
from psycopg.rows import dict_row

from adapters.postgres.event_store import Pool
from service.errors import DeliveryNotFailed, WebhookNotFound
from service.ports.webhook_subscriptions import (
    Attempt,
    Delivery,
    NewWebhook,
    Webhook,
    WebhookTarget,
)
from service.tournament.webhooks.payloads import Kind

DELIVERIES = """
SELECT d.delivery_id, d.match_id::text AS match_id, d.kind, d.event_position, d.event_version,
       d.status, d.attempts, d.next_attempt_at, d.last_error, d.created_at, d.delivered_at,
       d.payload,
       coalesce(
           (SELECT json_agg(json_build_object(
                'attempt', a.attempt, 'worker', a.worker, 'started_at', a.started_at,
                'finished_at', a.finished_at, 'status_code', a.status_code, 'error', a.error)
                ORDER BY a.attempt)
            FROM webhook_attempts a WHERE a.delivery_id = d.delivery_id),
           '[]'::json) AS attempt_log
FROM webhook_deliveries d
WHERE d.webhook_id = %s AND d.delivery_id > %s
ORDER BY d.delivery_id
LIMIT %s
"""


# One statement: the delivery found (or not), and made due again only if it had failed.
REDELIVER = """
WITH found AS (
    SELECT d.delivery_id, d.status FROM webhook_deliveries d
    JOIN webhooks w USING (webhook_id)
    WHERE d.delivery_id = %s AND d.webhook_id = %s AND w.operator_id = %s
      AND w.deleted_at IS NULL
    FOR UPDATE OF d
), again AS (
    UPDATE webhook_deliveries d
    SET status = 'pending', extra_attempts = d.extra_attempts + 1, next_attempt_at = now()
    FROM found WHERE d.delivery_id = found.delivery_id AND found.status = 'failed'
    RETURNING d.delivery_id
)
SELECT EXISTS (SELECT 1 FROM again), status FROM found
"""


class PostgresWebhookSubscriptions:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def create(
        self, operator_id: str, webhook_id: str, url: str, secret: str, events: Sequence[Kind]
    ) -> NewWebhook:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO webhooks (webhook_id, operator_id, url, secret, events) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING created_at",
                (webhook_id, operator_id, url, secret, list(events)),
            )
            row = await cur.fetchone()
        assert row is not None
        return NewWebhook(
            webhook_id=webhook_id, url=url, events=list(events), created_at=row[0], secret=secret
        )

    async def live(self, operator_id: str) -> list[Webhook]:
        async with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "SELECT webhook_id::text, url, events, created_at FROM webhooks "
                "WHERE operator_id = %s AND deleted_at IS NULL ORDER BY created_at, webhook_id",
                (operator_id,),
            )
            return [Webhook(**row) for row in await cur.fetchall()]

    async def delete(self, operator_id: str, webhook_id: str) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "UPDATE webhooks SET deleted_at = now() "
                "WHERE webhook_id = %s AND operator_id = %s AND deleted_at IS NULL",
                (webhook_id, operator_id),
            )
            if cur.rowcount != 1:
                raise WebhookNotFound(f"you have no webhook {webhook_id}")
            await conn.execute(
                "UPDATE webhook_deliveries SET status = 'cancelled', "
                "last_error = 'the webhook was deleted' "
                "WHERE webhook_id = %s AND status = 'pending'",
                (webhook_id,),
            )

    async def target(self, operator_id: str, webhook_id: str) -> WebhookTarget:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT url, secret, "
                "CASE WHEN previous_secret_until > now() THEN previous_secret END "
                "FROM webhooks WHERE webhook_id = %s AND operator_id = %s AND deleted_at IS NULL",
                (webhook_id, operator_id),
            )
            row = await cur.fetchone()
        if row is None:
            raise WebhookNotFound(f"you have no webhook {webhook_id}")
        return WebhookTarget(url=row[0], secret=row[1], previous_secret=row[2])

    async def rotate_secret(
        self, operator_id: str, webhook_id: str, secret: str, previous_until: datetime
    ) -> None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE webhooks SET previous_secret = secret, secret = %s, "
                "previous_secret_until = %s "
                "WHERE webhook_id = %s AND operator_id = %s AND deleted_at IS NULL",
                (secret, previous_until, webhook_id, operator_id),
            )
            if cur.rowcount != 1:
                raise WebhookNotFound(f"you have no webhook {webhook_id}")

    async def redeliver(self, operator_id: str, webhook_id: str, delivery_id: int) -> None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(REDELIVER, (delivery_id, webhook_id, operator_id))
            row = await cur.fetchone()
        if row is None:
            raise WebhookNotFound(f"your live webhook {webhook_id} has no delivery {delivery_id}")
        if not row[0]:
            raise DeliveryNotFailed(
                f"delivery {delivery_id} is {row[1]}: only a failed one is sent again"
            )

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int, limit: int
    ) -> list[Delivery]:
        async with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "SELECT 1 FROM webhooks WHERE webhook_id = %s AND operator_id = %s",
                (webhook_id, operator_id),
            )
            if await cur.fetchone() is None:
                raise WebhookNotFound(f"you have no webhook {webhook_id}")
            await cur.execute(DELIVERIES, (webhook_id, after, limit))
            rows = await cur.fetchall()
        return [
            Delivery(
                **{
                    **row,
                    "payload": msgspec.Raw(bytes(row["payload"])),
                    "attempt_log": msgspec.convert(row["attempt_log"], list[Attempt]),
                }
            )
            for row in rows
        ]
