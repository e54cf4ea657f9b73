"""Webhook subscriptions in a Python process (see ``webhook_tables`` for the shared state)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from adapters.memory.webhook_tables import SubscriptionRow, WebhookTables
from service.errors import DeliveryNotFailed, WebhookNotFound
from service.ports.webhook_subscriptions import (
    Attempt,
    Delivery,
    NewWebhook,
    Webhook,
    WebhookTarget,
)
from service.tournament.webhooks.payloads import Kind


class InMemoryWebhookSubscriptions:
    def __init__(self, tables: WebhookTables) -> None:
        self._tables = tables

    async def create(
        self, operator_id: str, webhook_id: str, url: str, secret: str, events: Sequence[Kind]
    ) -> NewWebhook:
        row = SubscriptionRow(
            webhook_id, operator_id, url, secret, list(events), self._tables.now()
        )
        self._tables.subscriptions[webhook_id] = row
        return NewWebhook(
            webhook_id=webhook_id,
            url=url,
            events=list(events),
            created_at=row.created_at,
            secret=secret,
        )

    async def live(self, operator_id: str) -> list[Webhook]:
        rows = sorted(
            (
                s
                for s in self._tables.subscriptions.values()
                if s.operator_id == operator_id and s.deleted_at is None
            ),
            key=lambda s: (s.created_at, s.webhook_id),
        )
        return [
            Webhook(
                webhook_id=s.webhook_id, url=s.url, events=list(s.events), created_at=s.created_at
            )
            for s in rows
        ]

    async def delete(self, operator_id: str, webhook_id: str) -> None:
        row = self._tables.subscriptions.get(webhook_id)
        if row is None or row.operator_id != operator_id or row.deleted_at is not None:
            raise WebhookNotFound(f"you have no webhook {webhook_id}")
        row.deleted_at = self._tables.now()
        for delivery in self._tables.deliveries.values():
            if delivery.webhook_id == webhook_id and delivery.status == "pending":
                delivery.status = "cancelled"
                delivery.last_error = "the webhook was deleted"

    async def target(self, operator_id: str, webhook_id: str) -> WebhookTarget:
        row = self._tables.subscriptions.get(webhook_id)
        if row is None or row.operator_id != operator_id or row.deleted_at is not None:
            raise WebhookNotFound(f"you have no webhook {webhook_id}")
        overlapping = row.previous_secret_until is not None and (
            row.previous_secret_until > self._tables.now()
        )
        return WebhookTarget(
            url=row.url,
            secret=row.secret,
            previous_secret=row.previous_secret if overlapping else None,
        )

    async def rotate_secret(
        self, operator_id: str, webhook_id: str, secret: str, previous_until: datetime
    ) -> None:
        row = self._tables.subscriptions.get(webhook_id)
        if row is None or row.operator_id != operator_id or row.deleted_at is not None:
            raise WebhookNotFound(f"you have no webhook {webhook_id}")
        row.previous_secret, row.secret = row.secret, secret
        row.previous_secret_until = previous_until

    async def redeliver(self, operator_id: str, webhook_id: str, delivery_id: int) -> None:
        row = self._tables.subscriptions.get(webhook_id)
        delivery = self._tables.deliveries.get(delivery_id)
        if (
            row is None
            or row.operator_id != operator_id
            or row.deleted_at is not None
            or delivery is None
            or delivery.webhook_id != webhook_id
        ):
            raise WebhookNotFound(f"your live webhook {webhook_id} has no delivery {delivery_id}")
        if delivery.status != "failed":
            raise DeliveryNotFailed(
                f"delivery {delivery_id} is {delivery.status}: only a failed one is sent again"
            )
        delivery.status = "pending"
        delivery.extra_attempts += 1
        delivery.next_attempt_at = self._tables.now()

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int, limit: int
    ) -> list[Delivery]:
        row = self._tables.subscriptions.get(webhook_id)
        if row is None or row.operator_id != operator_id:
            raise WebhookNotFound(f"you have no webhook {webhook_id}")
        found = sorted(
            (
                d
                for d in self._tables.deliveries.values()
                if d.webhook_id == webhook_id and d.delivery_id > after
            ),
            key=lambda d: d.delivery_id,
        )[:limit]
        return [
            Delivery(
                delivery_id=d.delivery_id,
                match_id=d.match_id,
                kind=d.kind,
                event_position=d.event_position,
                event_version=d.event_version,
                status=d.status,
                attempts=d.attempts,
                next_attempt_at=d.next_attempt_at,
                last_error=d.last_error,
                created_at=d.created_at,
                delivered_at=d.delivered_at,
                payload=msgspec.Raw(d.payload),
                attempt_log=[
                    Attempt(
                        attempt=a.attempt,
                        worker=a.worker,
                        started_at=a.started_at,
                        finished_at=a.finished_at,
                        status_code=a.status_code,
                        error=a.error,
                    )
                    for a in d.attempt_log
                ],
            )
            for d in found
        ]
