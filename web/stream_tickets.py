"""``POST /matches/{id}/stream-tickets``: a seat's token traded for a single-use stream ticket,
for clients (browsers) that cannot send headers on a live stream."""

from __future__ import annotations

from typing import cast

import msgspec
from litestar import Controller, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import RawBody
from litestar.status_codes import HTTP_201_CREATED

from service.matches.stream_tickets import StreamTickets
from service.ports.stream_tickets import TICKET_LIFETIME
from web.dependencies import seated
from web.docs import BEARER, problems
from web.empty_body import check_empty_body
from web.params import Authorization, Matches, MatchId

Tickets = NamedDependency[StreamTickets]


class StreamTicket(msgspec.Struct, frozen=True, kw_only=True):
    """Open ``GET /matches/{match_id}/stream?ticket=<ticket>`` within ``expires_in`` seconds;
    the ticket opens that seat's stream once."""

    ticket: str
    expires_in: int


def provide_stream_tickets(state: State) -> StreamTickets:
    return cast(StreamTickets, state.stream_tickets)


class StreamTicketsController(Controller):
    path = "/matches/{match_id:uuid}/stream-tickets"
    tags = ("play",)
    security = ({BEARER: []},)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="A single-use ticket for your seat's live stream",
        responses=problems(400, 401, 403, 404, 413, 422),
    )
    async def issue(
        self,
        match_id: MatchId,
        matches: Matches,
        stream_tickets: Tickets,
        body: RawBody,
        authorization: Authorization = None,
    ) -> StreamTicket:
        """For browsers, whose ``EventSource`` cannot send ``Authorization``: the seat's token
        never goes in a URL; the ticket does, and is worthless once used or expired. The body
        is empty or ``{}``."""
        check_empty_body(body, "a stream ticket")
        by = await seated(matches, str(match_id), authorization)
        ticket = await stream_tickets.issue(by)
        return StreamTicket(ticket=ticket, expires_in=int(TICKET_LIFETIME.total_seconds()))
