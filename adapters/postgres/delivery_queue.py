"""The delivery queue in PostgreSQL.

A claim is one statement: pick due deliveries ``FOR UPDATE SKIP LOCKED`` (a row another
process is claiming at this instant is skipped, not waited for), count the attempt, set
``lease_until`` and a fresh ``lease_token``, and open the attempt's row in
``webhook_attempts``. It commits at once; the lease, not a held lock, keeps other processes off
the delivery while it is being sent. Times are the database's ``now()``, so every process
agrees on when a lease runs out.
"""

from __future__ import annotations

import uuid

from adapters.postgres.event_store import Pool
from service.ports.delivery_queue import Claimed, Outcome
from service.tournament.webhooks.settings import WebhookSettings

CLAIM = """
WITH due AS (
    SELECT d.delivery_id FROM webhook_deliveries d
    JOIN webhooks w ON w.webhook_id = d.webhook_id AND w.deleted_at IS NULL
    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      AND (d.lease_until IS NULL OR d.lease_until <= now())
      AND d.attempts < %(max_attempts)s + d.extra_attempts
    ORDER BY d.next_attempt_at, d.delivery_id
    LIMIT %(limit)s
    FOR UPDATE OF d SKIP LOCKED
), claimed AS (
    UPDATE webhook_deliveries d
    SET attempts = d.attempts + 1,
        lease_until = now() + %(lease)s * interval '1 second',
        lease_token = %(token)s
    FROM due WHERE d.delivery_id = due.delivery_id
    RETURNING d.delivery_id, d.webhook_id, d.kind, d.payload, d.attempts
), opened AS (
    INSERT INTO webhook_attempts (delivery_id, attempt, worker)
    SELECT delivery_id, attempts, %(worker)s FROM claimed
)
SELECT c.delivery_id, c.kind, c.payload, c.attempts, w.url, w.secret,
       CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END
FROM claimed c JOIN webhooks w USING (webhook_id)
ORDER BY c.delivery_id
"""

# An attempt that never finished (its process died) still counts; past the limit, give up.
GIVE_UP_ABANDONED = """
UPDATE webhook_deliveries
SET status = 'failed', lease_until = NULL, lease_token = NULL,
    last_error = coalesce(last_error, 'the last attempt never finished')
WHERE status = 'pending' AND attempts >= %s + extra_attempts AND lease_until <= now()
"""

CLOSE_ATTEMPT = """
UPDATE webhook_attempts SET finished_at = now(), status_code = %s, error = %s
WHERE delivery_id = %s AND attempt = %s
"""

DELIVERED = """
UPDATE webhook_deliveries
SET status = 'delivered', delivered_at = now(), lease_until = NULL, lease_token = NULL,
    last_error = NULL
WHERE delivery_id = %s AND lease_token = %s
"""

FAILED = """
UPDATE webhook_deliveries
SET status = CASE WHEN attempts >= %(max_attempts)s + extra_attempts THEN 'failed'
                  ELSE 'pending' END,
    next_attempt_at = now() + %(backoff)s * interval '1 second',
    lease_until = NULL, lease_token = NULL, last_error = %(error)s
WHERE delivery_id = %(id)s AND lease_token = %(token)s AND status = 'pending'
"""


class PostgresDeliveryQueue:
    def __init__(self, pool: Pool, settings: WebhookSettings) -> None:
        self._pool = pool
        self._settings = settings

    async def claim(self, worker: str, limit: int) -> list[Claimed]:
        token = str(uuid.uuid4())
        params = {
            "max_attempts": self._settings.max_attempts,
            "limit": limit,
            "lease": self._settings.lease_seconds,
            "token": token,
            "worker": worker,
        }
        async with self._pool.connection() as conn:
            await conn.execute(GIVE_UP_ABANDONED, (self._settings.max_attempts,))
            cur = await conn.execute(CLAIM, params)
            rows = await cur.fetchall()
        return [
            Claimed(delivery_id, kind, bytes(payload), attempt, url, secret, token, previous)
            for delivery_id, kind, payload, attempt, url, secret, previous in rows
        ]

    async def finish(self, claimed: Claimed, outcome: Outcome) -> None:
        error = outcome.logged_error
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                CLOSE_ATTEMPT, (outcome.status_code, error, claimed.delivery_id, claimed.attempt)
            )
            if outcome.delivered:
                await conn.execute(DELIVERED, (claimed.delivery_id, claimed.lease_token))
                return
            await conn.execute(
                FAILED,
                {
                    "max_attempts": self._settings.max_attempts,
                    "backoff": self._settings.backoff(claimed.attempt),
                    "error": error,
                    "id": claimed.delivery_id,
                    "token": claimed.lease_token,
                },
            )
