"""``/webhooks``: an operator registers URLs for news of its matches (created, started, each
hand, game and match end), and reads what became of each delivery. Every route needs
``webhooks:manage``; an operator sees only its own."""

from __future__ import annotations

from typing import Annotated, cast
from uuid import UUID

import msgspec
from litestar import Controller, delete, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.status_codes import (
    HTTP_200_OK,
    HTTP_201_CREATED,
    HTTP_202_ACCEPTED,
    HTTP_204_NO_CONTENT,
)
from msgspec import Meta

from service.ports.webhook_subscriptions import Delivery, NewWebhook, Webhook
from service.tournament.webhooks.payloads import KINDS, PLAYER_KINDS, Kind
from service.tournament.webhooks.ping import PingResult
from service.tournament.webhooks.subscriptions import (
    MAX_OVERLAP_SECONDS,
    RotatedSecret,
    SubscriptionService,
)
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for

Webhooks = NamedDependency[SubscriptionService]
WebhookId = Annotated[UUID, PathParameter(name="webhook_id", description="The webhook's id")]
AfterDelivery = Annotated[
    int, QueryParameter(name="after", ge=0, le=2**62, description="Deliveries after this id")
]
Limit = Annotated[int, QueryParameter(name="limit", ge=1, le=500, description="Page size")]


class CreateWebhook(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Leave ``secret`` out to have one made; either way it is returned once, here."""

    url: Annotated[str, Meta(min_length=1, max_length=2000)]
    secret: Annotated[str, Meta(min_length=16, max_length=200)] | None = None
    events: Annotated[list[Kind], Meta(min_length=1)] = msgspec.field(
        default_factory=lambda: list(KINDS)
    )


class SecretRotation(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Leave ``secret`` out to have one made. ``overlap_seconds`` (default a day, at most a
    week; 0 ends the old secret at once) is how long the old secret signs too."""

    secret: Annotated[str, Meta(min_length=16, max_length=200)] | None = None
    overlap_seconds: Annotated[int, Meta(ge=0, le=MAX_OVERLAP_SECONDS)] = 24 * 3600


class WebhookList(msgspec.Struct, frozen=True):
    webhooks: list[Webhook]


class DeliveryPage(msgspec.Struct, frozen=True):
    """``next``: pass it as ``after`` for the following page."""

    deliveries: list[Delivery]
    next: int


def provide_webhooks(state: State) -> SubscriptionService:
    return cast(SubscriptionService, state.webhooks)


class WebhooksController(Controller):
    path = "/webhooks"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Register a webhook",
        responses=problems(400, 401, 403, 422),
    )
    async def create(
        self,
        data: JSONBody[CreateWebhook],
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> NewWebhook:
        """Each piece of news of your matches is POSTed as JSON, signed by the Standard
        Webhooks scheme (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``; verify
        with the ``standardwebhooks`` library). The URL must reach a public address.
        ``player_your_turn`` and ``player_match_ended`` are a push relay's: every player's
        turns and ended matches, one delivery per player; they need the scope
        ``players:relay`` and are never chosen by default."""
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        if any(kind in PLAYER_KINDS for kind in data.events):
            # A player's news tells of every player, not the operator's matches only.
            await operator_for(operator_keys, authorization, "players:relay")
        return await webhooks.create(operator.operator_id, data.url, data.secret, data.events)

    @get("/", summary="Your webhooks", responses=problems(400, 401, 403))
    async def list_webhooks(
        self,
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> WebhookList:
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        return WebhookList(await webhooks.live(operator.operator_id))

    @delete(
        "/{webhook_id:uuid}",
        status_code=HTTP_204_NO_CONTENT,
        summary="Delete a webhook",
        responses=problems(400, 401, 403, 404),
    )
    async def remove(
        self,
        webhook_id: WebhookId,
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> None:
        """Nothing more is sent to it; pending deliveries are cancelled."""
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        await webhooks.delete(operator.operator_id, str(webhook_id))

    @post(
        "/{webhook_id:uuid}/ping",
        status_code=HTTP_200_OK,
        summary="Send a signed test ping to a webhook's receiver now",
        responses=problems(400, 401, 403, 404),
    )
    async def ping(
        self,
        webhook_id: WebhookId,
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> PingResult:
        """A POST of ``{"event_id": "ping:...", "kind": "ping", "webhook_id": ...}``, signed
        as every delivery is (``X-Gin-Event: ping``), sent once, now; the answer says what the
        receiver answered (``ok`` for a 2xx). Not a delivery: not queued, retried or listed.
        Needs ``webhooks:manage``."""
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        return await webhooks.ping(operator.operator_id, str(webhook_id))

    @post(
        "/{webhook_id:uuid}/secret",
        status_code=HTTP_201_CREATED,
        summary="Rotate a webhook's secret, both signing for an overlap",
        responses=problems(400, 401, 403, 404, 422),
    )
    async def rotate_secret(
        self,
        webhook_id: WebhookId,
        data: JSONBody[SecretRotation],
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> RotatedSecret:
        """The new secret (shown once; made if you send none) signs every delivery from now
        on. Until ``previous_valid_until`` the old one signs too: ``webhook-signature`` holds
        both signatures, space-separated, so a receiver verifies with either and may switch
        at any moment of the overlap. Needs ``webhooks:manage``."""
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        return await webhooks.rotate_secret(
            operator.operator_id, str(webhook_id), data.secret, data.overlap_seconds
        )

    @post(
        "/{webhook_id:uuid}/deliveries/{delivery_id:int}/redelivery",
        status_code=HTTP_202_ACCEPTED,
        summary="Send a failed delivery again",
        responses=problems(400, 401, 403, 404, 409),
    )
    async def redeliver(
        self,
        webhook_id: WebhookId,
        delivery_id: Annotated[int, PathParameter(name="delivery_id", ge=1)],
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
    ) -> None:
        """The delivery is due at once for one more attempt, with the same payload and
        ``webhook-id`` (a receiver that has it already drops it); its attempts so far stay in
        its log. Only a failed delivery of a live webhook (409 ``delivery-not-failed``
        otherwise). Needs ``webhooks:manage``."""
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        await webhooks.redeliver(operator.operator_id, str(webhook_id), delivery_id)

    @get(
        "/{webhook_id:uuid}/deliveries",
        summary="A webhook's deliveries and every attempt",
        responses=problems(400, 401, 403, 404),
    )
    async def deliveries(
        self,
        webhook_id: WebhookId,
        operator_keys: Operators,
        webhooks: Webhooks,
        authorization: OperatorAuthorization = None,
        after: AfterDelivery = 0,
        limit: Limit = 100,
    ) -> DeliveryPage:
        operator = await operator_for(operator_keys, authorization, "webhooks:manage")
        found = await webhooks.deliveries(
            operator.operator_id, str(webhook_id), after=after, limit=limit
        )
        return DeliveryPage(found, found[-1].delivery_id if found else after)
