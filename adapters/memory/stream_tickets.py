"""Stream tickets in a Python process, aged by a clock the caller may pass.

No method awaits, so on one event loop a ticket is redeemed once even by redemptions at once.
"""

from __future__ import annotations

from datetime import datetime

from adapters.memory.clock import Clock, utc_now
from service.ports.stream_tickets import TICKET_LIFETIME, TicketHolder


class InMemoryStreamTicketStore:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._tickets: dict[bytes, tuple[TicketHolder, datetime]] = {}

    async def add(self, ticket_hash: bytes, holder: TicketHolder) -> None:
        now = self._clock()
        self._tickets = {
            kept: (held, expires)
            for kept, (held, expires) in self._tickets.items()
            if expires > now
        }
        self._tickets[ticket_hash] = (holder, now + TICKET_LIFETIME)

    async def redeem(self, ticket_hash: bytes) -> TicketHolder | None:
        kept = self._tickets.pop(ticket_hash, None)
        if kept is None or kept[1] <= self._clock():
            return None
        return kept[0]
