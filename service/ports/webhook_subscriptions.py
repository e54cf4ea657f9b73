"""The webhook subscriptions port: an operator's subscriptions (its webhooks) and what became
of their deliveries.

A deleted subscription is kept (its deliveries stay readable) but gets nothing new, and its
pending deliveries are cancelled. The types here are also what the API shows, so their names
and fields are part of the OpenAPI document.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

import msgspec

from service.tournament.webhooks.payloads import Kind


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


class WebhookTarget(msgspec.Struct, frozen=True, kw_only=True):
    """Where a live webhook is sent and what signs it (``previous_secret``: a rotated-out
    secret still in its overlap)."""

    url: str
    secret: str
    previous_secret: str | None = None


class WebhookSubscriptions(Protocol):
    async def create(
        self, operator_id: str, webhook_id: str, url: str, secret: str, events: Sequence[Kind]
    ) -> NewWebhook:
        """Keep a new subscription; the caller has checked the URL and chosen id and secret."""
        ...

    async def live(self, operator_id: str) -> list[Webhook]:
        """The operator's subscriptions not deleted, oldest first."""
        ...

    async def delete(self, operator_id: str, webhook_id: str) -> None:
        """Delete one and cancel its pending deliveries; ``WebhookNotFound`` unless the
        operator has it live."""
        ...

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int, limit: int
    ) -> list[Delivery]:
        """Its deliveries after delivery id ``after``, oldest first, each with every attempt;
        ``WebhookNotFound`` unless the operator has it (deleted or not)."""
        ...

    async def target(self, operator_id: str, webhook_id: str) -> WebhookTarget:
        """``WebhookNotFound`` unless the operator has the webhook live."""
        ...

    async def rotate_secret(
        self, operator_id: str, webhook_id: str, secret: str, previous_until: datetime
    ) -> None:
        """Sign with ``secret`` from now on, and with the secret it replaces too until
        ``previous_until``; ``WebhookNotFound`` unless the operator has the webhook live."""
        ...

    async def redeliver(self, operator_id: str, webhook_id: str, delivery_id: int) -> None:
        """Make a failed delivery of a live webhook due now for one more attempt, its payload
        unchanged; ``WebhookNotFound`` unless the operator has that webhook live with that
        delivery, ``DeliveryNotFailed`` unless the delivery has failed."""
        ...
