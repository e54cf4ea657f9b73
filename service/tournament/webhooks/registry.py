"""An operator's webhooks and what became of their deliveries.

A deleted webhook is kept (its deliveries stay readable) but gets nothing new, and its pending
deliveries are cancelled.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import msgspec
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from service.errors import InvalidRequest, WebhookNotFound
from service.tournament.webhooks.payloads import KINDS, Kind

SECRET_PREFIX = "whsec_"


class Webhook(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: str
    url: str
    events: list[Kind]
    created_at: datetime


class NewWebhook(Webhook, frozen=True, kw_only=True):
    secret: str


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    attempt: int
    worker: str
    started_at: datetime
    finished_at: datetime | None
    status_code: int | None
    error: str | None


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    delivery_id: int
    match_id: str
    kind: Kind
    event_position: int
    event_version: int
    status: str
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None
    payload: msgspec.Raw
    attempt_log: list[Attempt]


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidRequest(f"{url!r} is not an http(s) URL with a host")
    return url


class WebhookRegistry:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create(
        self, operator_id: str, url: str, secret: str | None, events: Sequence[Kind] = KINDS
    ) -> NewWebhook:
        webhook_id = str(uuid.uuid4())
        chosen = list(dict.fromkeys(events)) or list(KINDS)
        secret = secret or new_secret()
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO webhooks (webhook_id, operator_id, url, secret, events) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING created_at",
                (webhook_id, operator_id, check_url(url), secret, chosen),
            )
            row = await cur.fetchone()
        assert row is not None
        return NewWebhook(
            webhook_id=webhook_id, url=url, events=chosen, created_at=row[0], secret=secret
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

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int = 0, limit: int = 100
    ) -> list[Delivery]:
        """The webhook's deliveries after delivery id ``after``, oldest first, with attempts."""
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
