"""What the in-memory webhook adapters share, as the PostgreSQL ones share tables: the
subscriptions, their deliveries and attempts, the dispatcher's cursor, and the operators'
matches (which the match registry holds in PostgreSQL).

Time is read from an injected clock, so a test can let a lease or a backoff run out at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from service.ports.webhook_dispatch import NewDelivery, OperatorMatch
from service.tournament.webhooks.payloads import Kind

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class SubscriptionRow:
    webhook_id: str
    operator_id: str
    url: str
    secret: str
    events: list[Kind]
    created_at: datetime
    deleted_at: datetime | None = None
    previous_secret: str | None = None  # a rotated-out secret, signing until the time after
    previous_secret_until: datetime | None = None


@dataclass
class AttemptRow:
    attempt: int
    worker: str
    started_at: datetime
    finished_at: datetime | None = None
    status_code: int | None = None
    error: str | None = None


@dataclass
class DeliveryRow:
    delivery_id: int
    webhook_id: str
    match_id: str
    event_position: int
    event_version: int
    kind: Kind
    payload: bytes
    created_at: datetime
    next_attempt_at: datetime
    status: str = "pending"
    attempts: int = 0
    extra_attempts: int = 0  # granted past the limit by an operator's redelivery
    lease_until: datetime | None = None
    lease_token: str | None = None
    last_error: str | None = None
    delivered_at: datetime | None = None
    attempt_log: list[AttemptRow] = field(default_factory=list)
    player_id: str | None = None


class WebhookTables:
    def __init__(self, clock: Clock = system_clock) -> None:
        self.now = clock
        self.subscriptions: dict[str, SubscriptionRow] = {}
        self.deliveries: dict[int, DeliveryRow] = {}
        self.operator_matches: dict[str, OperatorMatch] = {}
        self.cursor = 0
        self.cursor_held = False
        self._delivery_ids = itertools.count(1)

    def next_delivery_id(self) -> int:
        return next(self._delivery_ids)

    def add_deliveries(self, added: Sequence[NewDelivery]) -> None:
        """Add each as pending and due now, unless its webhook has one for the same event
        position and player (the once-only constraint, with no player as a value)."""
        kept = {(d.webhook_id, d.event_position, d.player_id) for d in self.deliveries.values()}
        now = self.now()
        for new in added:
            key = (new.webhook_id, new.event_position, new.player_id)
            if key in kept:
                continue
            kept.add(key)
            delivery_id = self.next_delivery_id()
            self.deliveries[delivery_id] = DeliveryRow(
                delivery_id=delivery_id,
                webhook_id=new.webhook_id,
                match_id=new.match_id,
                event_position=new.event_position,
                event_version=new.event_version,
                kind=new.kind,
                payload=new.payload,
                created_at=now,
                next_attempt_at=now,
                player_id=new.player_id,
            )

    def add_operator_match(self, match_id: str, match: OperatorMatch) -> None:
        """Record a match an operator created (the in-memory stand-in for ``matches``)."""
        self.operator_matches[match_id] = match
