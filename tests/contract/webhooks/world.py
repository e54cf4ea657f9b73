"""A ``World`` for the webhook ports' contract suites: an event store and the subscriptions,
dispatch and queue adapters of one kind over shared state, plus the arranging a test needs that
no port offers (an operator, an operator's match, time passing)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from adapters.memory.delivery_queue import InMemoryDeliveryQueue
from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.webhook_dispatch import InMemoryWebhookDispatch
from adapters.memory.webhook_subscriptions import InMemoryWebhookSubscriptions
from adapters.memory.webhook_tables import WebhookTables
from adapters.postgres.delivery_queue import PostgresDeliveryQueue
from adapters.postgres.event_store import Pool, PostgresEventStore
from adapters.postgres.webhook_dispatch import PostgresWebhookDispatch
from adapters.postgres.webhook_subscriptions import PostgresWebhookSubscriptions
from service.ports.delivery_queue import DeliveryQueue
from service.ports.event_store import EventStore
from service.ports.webhook_dispatch import NewDelivery, OperatorMatch, WebhookDispatch
from service.ports.webhook_subscriptions import WebhookSubscriptions
from service.tournament.webhooks.payloads import KINDS, Kind
from service.tournament.webhooks.settings import WebhookSettings

SECRET = "a-contract-secret-long-enough"
UNUSED_URL = "http://127.0.0.1:9/hook"  # nothing is sent there


@dataclass
class World:
    store: EventStore
    subscriptions: WebhookSubscriptions
    dispatch: WebhookDispatch
    queue: Callable[[WebhookSettings], DeliveryQueue]
    new_operator: Callable[[], Awaitable[str]]
    # A match (its operator if any, external ref, seats' external ids): its match id.
    add_match: Callable[[str | None, str | None, list[str | None]], Awaitable[str]]
    # Let this many seconds pass for leases and backoffs.
    later: Callable[[float], Awaitable[None]]

    async def subscribe(
        self,
        operator_id: str,
        url: str = UNUSED_URL,
        events: list[Kind] | None = None,
    ) -> str:
        webhook_id = str(uuid.uuid4())
        await self.subscriptions.create(operator_id, webhook_id, url, SECRET, events or list(KINDS))
        return webhook_id

    async def pending(self, webhook_id: str, count: int, *, first_position: int = 1) -> str:
        """``count`` deliveries for ``webhook_id`` (at event positions from ``first_position``),
        added in a dispatch turn; the match id they are for."""
        match_id = str(uuid.uuid4())
        async with self.dispatch.turn() as turn:
            assert turn is not None
            await turn.add_deliveries(
                [
                    NewDelivery(
                        webhook_id=webhook_id,
                        match_id=match_id,
                        event_position=position,
                        event_version=position,
                        kind="hand_end",
                        payload=b'{"n":%d}' % position,
                    )
                    for position in range(first_position, first_position + count)
                ]
            )
        return match_id


class ManualClock:
    def __init__(self) -> None:
        self.now = datetime(2025, 12, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def memory_world() -> World:
    clock = ManualClock()
    tables = WebhookTables(clock)

    async def new_operator() -> str:
        return str(uuid.uuid4())

    async def add_match(operator_id: str | None, ref: str | None, players: list[str | None]) -> str:
        match_id = str(uuid.uuid4())
        if operator_id is not None:
            tables.add_operator_match(match_id, OperatorMatch(operator_id, ref, players))
        return match_id

    async def later(seconds: float) -> None:
        clock.now += timedelta(seconds=seconds)

    return World(
        store=InMemoryEventStore(),
        subscriptions=InMemoryWebhookSubscriptions(tables),
        dispatch=InMemoryWebhookDispatch(tables),
        queue=lambda settings: InMemoryDeliveryQueue(tables, settings),
        new_operator=new_operator,
        add_match=add_match,
        later=later,
    )


def postgres_world(pool: Pool) -> World:
    async def new_operator() -> str:
        operator_id = str(uuid.uuid4())
        async with pool.connection() as conn:
            await conn.execute(
                "INSERT INTO operators (operator_id, name) VALUES (%s, %s)",
                (operator_id, f"operator {operator_id}"),
            )
        return operator_id

    async def add_match(operator_id: str | None, ref: str | None, players: list[str | None]) -> str:
        match_id = str(uuid.uuid4())
        async with pool.connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO matches (match_id, external_ref, server_secret, operator_id) "
                "VALUES (%s, %s, %s, %s)",
                (match_id, ref, os.urandom(32), operator_id),
            )
            for seat, player in enumerate(players):
                await conn.execute(
                    "INSERT INTO match_seats (match_id, seat, external_player_id) "
                    "VALUES (%s, %s, %s)",
                    (match_id, seat, player),
                )
        return match_id

    async def later(seconds: float) -> None:
        # The database's clock cannot be moved on, so every deadline is moved back instead.
        async with pool.connection() as conn:
            await conn.execute(
                "UPDATE webhook_deliveries SET "
                "next_attempt_at = next_attempt_at - %(s)s * interval '1 second', "
                "lease_until = lease_until - %(s)s * interval '1 second'",
                {"s": seconds},
            )

    return World(
        store=PostgresEventStore(pool),
        subscriptions=PostgresWebhookSubscriptions(pool),
        dispatch=PostgresWebhookDispatch(pool),
        queue=lambda settings: PostgresDeliveryQueue(pool, settings),
        new_operator=new_operator,
        add_match=add_match,
        later=later,
    )
