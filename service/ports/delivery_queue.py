"""The delivery queue port: due webhook deliveries, claimed under a lease so that one worker at
a time attempts each.

A claim counts the attempt and opens its log entry at once; the lease, not a held lock, keeps
other workers off a delivery while it is being sent. Finishing needs the claim's lease token,
so a worker whose lease ran out changes nothing but its attempt's log entry. A delivery whose
attempts reach the limit fails for good, also when its last attempt never finished.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from service.tournament.webhooks.payloads import Kind


class Claimed(msgspec.Struct, frozen=True):
    delivery_id: int
    kind: Kind
    body: bytes
    attempt: int
    url: str
    secret: str
    lease_token: str
    previous_secret: str | None = None  # a rotated-out secret still in its overlap: signs too


class Outcome(msgspec.Struct, frozen=True):
    """What one attempt came to: the receiver's status, or why there was none."""

    status_code: int | None = None
    error: str | None = None

    @property
    def delivered(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def logged_error(self) -> str | None:
        """What the attempt log and the delivery's last error say of this outcome."""
        if self.error is None and not self.delivered:
            return f"the receiver answered {self.status_code}"
        return self.error


class DeliveryQueue(Protocol):
    async def claim(self, worker: str, limit: int) -> list[Claimed]:
        """Up to ``limit`` due deliveries of live subscriptions, leased to ``worker``; never
        one another worker holds a lease on, nor waits for one being claimed."""
        ...

    async def finish(self, claimed: Claimed, outcome: Outcome) -> None:
        """Log the attempt's outcome; if the lease is still ours, mark the delivery delivered,
        or schedule it again after a backoff (failed for good after the last attempt)."""
        ...
