"""Stream tickets: a seat trades its token for a pass that opens its own live stream once.

The ticket is a random secret kept only as its hash (as tokens are); it names the match and the
seat it was issued for, so it can never open another seat's stream, nor another match's.
"""

from __future__ import annotations

import secrets

from service.errors import InvalidStreamTicket
from service.matches.tokens import secret_hash
from service.matches.use_cases import Seated
from service.ports.stream_tickets import StreamTicketStore, TicketHolder

TICKET_PREFIX = "gst_"


class StreamTickets:
    def __init__(self, store: StreamTicketStore) -> None:
        self._store = store

    async def issue(self, seated: Seated) -> str:
        ticket = TICKET_PREFIX + secrets.token_urlsafe(32)
        await self._store.add(secret_hash(ticket), TicketHolder(seated.match.match_id, seated.seat))
        return ticket

    async def redeem(self, match_id: str, ticket: str) -> int:
        """The seat the ticket opens in ``match_id``; the ticket is used up either way."""
        holder = await self._store.redeem(secret_hash(ticket))
        if holder is None or holder.match_id != match_id:
            raise InvalidStreamTicket(
                "a stream ticket opens one stream once, within seconds of being issued:"
                " ask for a new one with the seat's token"
            )
        return holder.seat
