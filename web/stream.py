"""``GET /matches/{id}/stream``: the same events as ``/events``, live, as Server-Sent Events.

Each message's id is the event's version, so a client that reconnects with ``Last-Event-ID``
resumes exactly where it stopped. Every wake-up re-reads the store from the last version sent:
a notification from any server process only says "look again".
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import msgspec
from litestar import Controller, Request, get
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.audit.record_kinds import record_kind
from service.errors import DatabaseUnavailable, InvalidParameter
from service.matches.stream_tickets import StreamTickets
from service.matches.use_cases import MatchService
from service.ports.match_registry import RegisteredMatch
from service.ports.wakeups import Wakeups
from web.dependencies import optional_seat_of
from web.docs import BEARER, problems
from web.live_streams import RECONNECT_MILLISECONDS, LiveStreams
from web.params import (
    After,
    Authorization,
    LastEventId,
    Matches,
    MatchId,
    StreamTicketParameter,
    WakeupsDependency,
)
from web.schemas import MAX_VERSION, EventEnvelope
from web.stream_tickets import Tickets

KEEPALIVE_SECONDS = 15.0
OUTAGE_RETRY_SECONDS = 1.0


class StreamController(Controller):
    path = "/matches/{match_id:uuid}/stream"
    tags = ("play",)
    security = ({BEARER: []}, {})

    @get(
        "/",
        summary="Live events (Server-Sent Events)",
        media_type="text/event-stream",
        responses=problems(400, 401, 403, 404),
    )
    async def stream(
        self,
        match_id: MatchId,
        matches: Matches,
        wakeups: WakeupsDependency,
        stream_tickets: Tickets,
        after: After = 0,
        last_event_id: LastEventId = None,
        authorization: Authorization = None,
        ticket: StreamTicketParameter = None,
        *,
        request: Request[Any, Any, Any],
    ) -> ServerSentEvent:
        """Each event is one message: ``id`` its version, ``event`` its type, ``data`` the
        same JSON as an entry of ``/events``. The stream ends after the match is won. A
        three- or four-player match streams its own events, as its ``/events`` lists them.

        A seat's stream is opened with its token (``Authorization``) or with a ticket from
        ``POST /matches/{match_id}/stream-tickets`` (``?ticket=``, for browsers); with
        neither, the spectator's. A used or expired ticket is refused (401), and so is a token
        in the URL (400), rather than answered with the spectator's stream."""
        seat = await _seat(matches, stream_tickets, str(match_id), authorization, ticket)
        start = resume_after(last_event_id, after)
        record = await matches.match(str(match_id))
        live = await _live(matches, record, seat)
        streams: LiveStreams = request.app.state.live_streams
        return ServerSentEvent(_messages(live, wakeups, start, streams))


class _Live(msgspec.Struct, frozen=True):
    """One match's live events: the stream whose wake-ups say "look again", how to read what
    the seat may see after a version, each event's type name, and the events that end it."""

    stream: str
    read: Callable[[int], Awaitable[Sequence[tuple[int, Any]]]]
    type_of: Callable[[Any], str]
    endings: type | tuple[type, ...]
    finished: bool  # when the stream was opened


async def _seat(
    matches: MatchService,
    tickets: StreamTickets,
    match_id: str,
    authorization: str | None,
    ticket: str | None,
) -> int | None:
    """The seat whose stream this is, from its token or its ticket; None for a spectator."""
    if ticket is None:
        return await optional_seat_of(matches, match_id, authorization)
    if authorization is not None:
        raise InvalidParameter("send a token or a ticket, not both")
    await matches.match(match_id)
    return await tickets.redeem(match_id, ticket)


async def _live(matches: MatchService, match: RegisteredMatch, seat: int | None) -> _Live:
    finished = await matches.finished(match)

    async def read(version: int) -> Sequence[tuple[int, Any]]:
        return await matches.events(match, seat, after_version=version)

    kind = record_kind(match)
    return _Live(kind.stream.stream_id(match.match_id), read, kind.tag, kind.endings, finished)


async def _messages(
    live: _Live, wakeups: Wakeups, version: int, streams: LiveStreams
) -> AsyncIterator[ServerSentEventMessage]:
    finished = live.finished
    with streams.opened():
        while not streams.stopping:
            # Taken before reading, so a commit between the read and the wait still wakes us.
            waiter = wakeups.waiter(live.stream)
            try:
                try:
                    events = await live.read(version)
                except DatabaseUnavailable:
                    # The stream outlives an outage: it says so, and reads again shortly (or
                    # when woken), from the last version it sent.
                    yield ServerSentEventMessage(data=None, comment="database unavailable")
                    await waiter.wait(OUTAGE_RETRY_SECONDS)
                    continue
                for event_version, event in events:
                    data = msgspec.json.encode(EventEnvelope(event_version, event)).decode()
                    yield ServerSentEventMessage(
                        data=data, event=live.type_of(event), id=event_version
                    )
                    version = event_version
                    finished = finished or isinstance(event, live.endings)
                if finished:
                    return
                if not await waiter.wait(KEEPALIVE_SECONDS):
                    yield ServerSentEventMessage(data=None, comment="keep-alive")
            finally:
                waiter.close()  # also when the client goes away mid-stream
        # The server is stopping: the client resumes from the last id it got, on whichever
        # server answers then.
        yield ServerSentEventMessage(
            data=None, comment="the server is stopping", retry=RECONNECT_MILLISECONDS
        )


def resume_after(last_event_id: str | None, after: int) -> int:
    """Where a stream resumes: after ``Last-Event-ID`` if the client sent one, else ``after``."""
    if last_event_id is None or not last_event_id.strip():
        return after
    text = last_event_id.strip()
    if not (
        text.isascii() and text.isdigit() and int(text or "0") <= MAX_VERSION and len(text) <= 18
    ):
        raise InvalidParameter("Last-Event-ID is the version of the last event received")
    return int(text)
