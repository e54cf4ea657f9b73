"""The webhook dispatch port: what turning the global event log into deliveries needs, as one
atomic turn.

A turn holds the dispatcher's cursor: while one is open no other dispatcher gets one (it is
told to skip, not made to wait). Everything done in a turn (deliveries added, the cursor moved)
takes effect together when the turn ends without an error, or not at all. So a crash leaves
the cursor where it was and the same page is dispatched again; a delivery is kept at most once
per subscription and event position, so the second time adds nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

import msgspec

from service.tournament.webhooks.payloads import Kind


class OperatorMatch(msgspec.Struct, frozen=True):
    """A match created by an operator, with the ids the operator knows it and its seats by."""

    operator_id: str
    external_ref: str | None
    external_player_ids: list[str | None]
    round_id: str | None = None  # the round it was created in, if any


class LiveSubscription(msgspec.Struct, frozen=True):
    webhook_id: str
    operator_id: str
    events: list[Kind]


class NewDelivery(msgspec.Struct, frozen=True, kw_only=True):
    webhook_id: str
    match_id: str
    event_position: int
    event_version: int
    kind: Kind
    payload: bytes
    player_id: str | None = None  # a player's news (a push relay's): one per player


class DispatchTurn(Protocol):
    @property
    def cursor(self) -> int:
        """The position in the global log the dispatcher has passed (0: none yet)."""
        ...

    async def operator_matches(self, match_ids: Collection[str]) -> dict[str, OperatorMatch]:
        """Those of ``match_ids`` an operator created, by match id."""
        ...

    async def live_subscriptions(self, operator_ids: Collection[str]) -> list[LiveSubscription]:
        """The subscriptions of these operators that are not deleted."""
        ...

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        """Add each as pending and due now, unless its subscription already has a delivery
        for that event position (and player)."""
        ...

    async def move_cursor(self, position: int) -> None: ...


class WebhookDispatch(Protocol):
    def turn(self) -> AbstractAsyncContextManager[DispatchTurn | None]:
        """The dispatcher's turn, or None if another dispatcher holds it now."""
        ...
