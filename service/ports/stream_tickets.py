"""The stream ticket port: short-lived, single-use passes to one seat's live stream.

A browser's ``EventSource`` cannot send an ``Authorization`` header, and a seat's token must not
travel in a URL (it would sit in logs and history for the whole match). So a seat trades its
token for a ticket that opens its own stream once, within ``TICKET_LIFETIME``. Tickets are kept
by hash, where every server process sharing the database can redeem them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

import msgspec

TICKET_LIFETIME = timedelta(seconds=30)


class TicketHolder(msgspec.Struct, frozen=True):
    """The seat of the match a ticket was issued for."""

    match_id: str
    seat: int


class StreamTicketStore(Protocol):
    async def add(self, ticket_hash: bytes, holder: TicketHolder) -> None:
        """Keep ``ticket_hash`` for ``holder`` until ``TICKET_LIFETIME`` from now, having
        forgotten every ticket that has expired."""
        ...

    async def redeem(self, ticket_hash: bytes) -> TicketHolder | None:
        """Whom the ticket was issued for, and the ticket is used up; None if it is unknown,
        already redeemed or expired."""
        ...
