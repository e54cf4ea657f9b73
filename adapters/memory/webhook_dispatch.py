"""The dispatcher's turn in a Python process: one turn at a time, its changes kept aside and
applied together when it ends without an error (as the PostgreSQL transaction commits)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager

from adapters.memory.webhook_tables import WebhookTables
from service.ports.webhook_dispatch import LiveSubscription, NewDelivery, OperatorMatch


class InMemoryDispatchTurn:
    def __init__(self, tables: WebhookTables) -> None:
        self._tables = tables
        self._cursor = tables.cursor
        self._added: list[NewDelivery] = []

    @property
    def cursor(self) -> int:
        return self._cursor

    async def operator_matches(self, match_ids: Collection[str]) -> dict[str, OperatorMatch]:
        known = self._tables.operator_matches
        return {match_id: known[match_id] for match_id in match_ids if match_id in known}

    async def live_subscriptions(self, operator_ids: Collection[str]) -> list[LiveSubscription]:
        return [
            LiveSubscription(s.webhook_id, s.operator_id, list(s.events))
            for s in self._tables.subscriptions.values()
            if s.operator_id in operator_ids and s.deleted_at is None
        ]

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        self._added += deliveries

    async def move_cursor(self, position: int) -> None:
        self._cursor = position

    def commit(self) -> None:
        self._tables.add_deliveries(self._added)
        self._tables.cursor = self._cursor


class InMemoryWebhookDispatch:
    def __init__(self, tables: WebhookTables) -> None:
        self._tables = tables

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[InMemoryDispatchTurn | None]:
        if self._tables.cursor_held:
            yield None
            return
        self._tables.cursor_held = True
        try:
            turn = InMemoryDispatchTurn(self._tables)
            yield turn
            turn.commit()
        finally:
            self._tables.cursor_held = False
