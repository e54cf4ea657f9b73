"""Subscribing to webhooks: an operator registers URLs for the ends of its matches, lists and
deletes them, and reads what became of each delivery."""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import msgspec

from service.errors import InvalidParameter
from service.ports.delivery_sender import DeliverySender
from service.ports.webhook_subscriptions import (
    Delivery,
    NewWebhook,
    Webhook,
    WebhookSubscriptions,
)
from service.tournament.webhooks.destinations import Destinations
from service.tournament.webhooks.payloads import KINDS, Kind
from service.tournament.webhooks.ping import PingResult, ping
from service.tournament.webhooks.signing import SECRET_PREFIX


def _utc_now() -> datetime:
    return datetime.now(UTC)


def new_secret() -> str:
    """A secret in the Standard Webhooks form: ``whsec_`` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


MAX_OVERLAP_SECONDS = 7 * 24 * 3600


class RotatedSecret(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: str
    secret: str  # shown once
    previous_valid_until: datetime  # the old secret signs too until then


class SubscriptionService:
    def __init__(
        self,
        subscriptions: WebhookSubscriptions,
        destinations: Destinations,
        clock: Callable[[], datetime] = _utc_now,
        sender: DeliverySender | None = None,
    ) -> None:
        """``destinations`` refuses URLs webhooks may not reach (loopback, private, ...);
        ``sender`` sends test pings (the workers' own, destinations checked again)."""
        self._subscriptions = subscriptions
        self._destinations = destinations
        self._clock = clock
        self._sender = sender

    async def ping(self, operator_id: str, webhook_id: str) -> PingResult:
        """One signed test POST to the webhook's receiver now, and what it answered."""
        assert self._sender is not None, "this service sends no pings"
        return await ping(self._subscriptions, self._sender, operator_id, webhook_id)

    async def rotate_secret(
        self, operator_id: str, webhook_id: str, secret: str | None, overlap_seconds: int
    ) -> RotatedSecret:
        """A new secret (made if none is given), with the old one signing too for
        ``overlap_seconds`` (0: the old one stops at once)."""
        if not 0 <= overlap_seconds <= MAX_OVERLAP_SECONDS:
            raise InvalidParameter(f"overlap_seconds is 0 to {MAX_OVERLAP_SECONDS}")
        made = secret or new_secret()
        until = self._clock() + timedelta(seconds=overlap_seconds)
        await self._subscriptions.rotate_secret(operator_id, webhook_id, made, until)
        return RotatedSecret(webhook_id=webhook_id, secret=made, previous_valid_until=until)

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
