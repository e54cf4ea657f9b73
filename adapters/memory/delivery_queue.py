"""The delivery queue in a Python process, with leases timed by the tables' clock.

No method awaits between reading and writing, so on one event loop every claim and finish is
atomic, as the single statements of the PostgreSQL queue are.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from adapters.memory.webhook_tables import AttemptRow, DeliveryRow, WebhookTables
from service.ports.delivery_queue import Claimed, Outcome
from service.tournament.webhooks.settings import WebhookSettings


class InMemoryDeliveryQueue:
    def __init__(self, tables: WebhookTables, settings: WebhookSettings) -> None:
        self._tables = tables
        self._settings = settings

    async def claim(self, worker: str, limit: int) -> list[Claimed]:
        now = self._tables.now()
        self._give_up_abandoned()
        due = sorted(
            (d for d in self._tables.deliveries.values() if self._is_due(d)),
            key=lambda d: (d.next_attempt_at, d.delivery_id),
        )[:limit]
        token = str(uuid.uuid4())
        claimed = []
        for delivery in due:
            delivery.attempts += 1
            delivery.lease_until = now + timedelta(seconds=self._settings.lease_seconds)
            delivery.lease_token = token
            delivery.attempt_log.append(AttemptRow(delivery.attempts, worker, now))
            subscription = self._tables.subscriptions[delivery.webhook_id]
            claimed.append(
                Claimed(
                    delivery.delivery_id,
                    delivery.kind,
                    delivery.payload,
                    delivery.attempts,
                    subscription.url,
                    subscription.secret,
                    token,
                    subscription.previous_secret
                    if subscription.previous_secret_until is not None
                    and subscription.previous_secret_until > now
                    else None,
                )
            )
        return claimed

    def _is_due(self, delivery: DeliveryRow) -> bool:
        now = self._tables.now()
        subscription = self._tables.subscriptions.get(delivery.webhook_id)
        return (
            subscription is not None
            and subscription.deleted_at is None
            and delivery.status == "pending"
            and delivery.next_attempt_at <= now
            and (delivery.lease_until is None or delivery.lease_until <= now)
            and delivery.attempts < self._settings.max_attempts + delivery.extra_attempts
        )

    def _give_up_abandoned(self) -> None:
        # An attempt that never finished (its worker died) still counts; past the limit, give up.
        now = self._tables.now()
        for delivery in self._tables.deliveries.values():
            if (
                delivery.status == "pending"
                and delivery.attempts >= self._settings.max_attempts + delivery.extra_attempts
                and delivery.lease_until is not None
                and delivery.lease_until <= now
            ):
                delivery.status = "failed"
                delivery.lease_until = delivery.lease_token = None
                delivery.last_error = delivery.last_error or "the last attempt never finished"

    async def finish(self, claimed: Claimed, outcome: Outcome) -> None:
        now = self._tables.now()
        error = outcome.logged_error
        delivery = self._tables.deliveries.get(claimed.delivery_id)
        if delivery is None:
            return
        for attempt in delivery.attempt_log:
            if attempt.attempt == claimed.attempt:
                attempt.finished_at, attempt.status_code, attempt.error = (
                    now,
                    outcome.status_code,
                    error,
                )
        if delivery.lease_token != claimed.lease_token:
            return  # the lease ran out and another worker has it, or it is settled
        if outcome.delivered:
            delivery.status, delivery.delivered_at, delivery.last_error = "delivered", now, None
        elif delivery.status == "pending":
            if delivery.attempts >= self._settings.max_attempts + delivery.extra_attempts:
                delivery.status = "failed"
            delivery.next_attempt_at = now + timedelta(
                seconds=self._settings.backoff(claimed.attempt)
            )
            delivery.last_error = error
        else:
            return
        delivery.lease_until = delivery.lease_token = None
