"""Subscribing to webhooks: an operator registers URLs for the ends of its matches, lists and
deletes them, and reads what became of each delivery."""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Sequence

from service.ports.webhook_subscriptions import (
    Delivery,
    NewWebhook,
    Webhook,
    WebhookSubscriptions,
)
from service.tournament.webhooks.destinations import Destinations
from service.tournament.webhooks.payloads import KINDS, Kind
from service.tournament.webhooks.signing import SECRET_PREFIX


def new_secret() -> str:
    """A secret in the Standard Webhooks form: ``whsec_`` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


class SubscriptionService:
    def __init__(self, subscriptions: WebhookSubscriptions, destinations: Destinations) -> None:
        """``destinations`` refuses URLs webhooks may not reach (loopback, private, ...)."""
        self._subscriptions = subscriptions
        self._destinations = destinations

    async def create(
        self, operator_id: str, url: str, secret: str | None, events: Sequence[Kind] = KINDS
    ) -> NewWebhook:
        """Subscribe ``url`` to the chosen kinds of end (all of them if none); without a
        secret, one is made. The secret is returned here and never again."""
        chosen = list(dict.fromkeys(events)) or list(KINDS)
        await self._destinations.check(url)
        return await self._subscriptions.create(
            operator_id, str(uuid.uuid4()), url, secret or new_secret(), chosen
        )

    async def live(self, operator_id: str) -> list[Webhook]:
        return await self._subscriptions.live(operator_id)

    async def delete(self, operator_id: str, webhook_id: str) -> None:
        await self._subscriptions.delete(operator_id, webhook_id)

    async def redeliver(self, operator_id: str, webhook_id: str, delivery_id: int) -> None:
        """A failed delivery is due again now, for one attempt more than the server allows."""
        await self._subscriptions.redeliver(operator_id, webhook_id, delivery_id)

    async def deliveries(
        self, operator_id: str, webhook_id: str, *, after: int = 0, limit: int = 100
    ) -> list[Delivery]:
        return await self._subscriptions.deliveries(
            operator_id, webhook_id, after=after, limit=limit
        )
