"""Subscribing to webhooks: an operator registers URLs for the ends of its matches, lists and
deletes them, and reads what became of each delivery."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from urllib.parse import urlsplit

from service.errors import InvalidRequest
from service.ports.webhook_subscriptions import (
    Delivery,
    NewWebhook,
    Webhook,
    WebhookSubscriptions,
)
from service.tournament.webhooks.payloads import KINDS, Kind

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidRequest(f"{url!r} is not an http(s) URL with a host")
    return url


class SubscriptionService:
    def __init__(self, subscriptions: WebhookSubscriptions) -> None:
        self._subscriptions = subscriptions

    async def create(
        self, operator_id: str, url: str, secret: str | None, events: Sequence[Kind] = KINDS
    ) -> NewWebhook:
        """Subscribe ``url`` to the chosen kinds of end (all of them if none); without a
        secret, one is made. The secret is returned here and never again."""
        chosen = list(dict.fromkeys(events)) or list(KINDS)
        return await self._subscriptions.create(
            operator_id, str(uuid.uuid4()), check_url(url), secret or new_secret(), chosen
        )

    async def live(self, operator_id: str) -> list[Webhook]:
        return await self._subscriptions.live(operator_id)

    async def delete(self, operator_id: str, webhook_id: str) -> None:
        await self._subscriptions.delete(operator_id, webhook_id)

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int = 0, limit: int = 100
    ) -> list[Delivery]:
        return await self._subscriptions.deliveries(
            operator_id, webhook_id, after=after, limit=limit
        )
