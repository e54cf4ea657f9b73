"""``GET /matches/{id}/events``: the match's events, as the caller's seat may see them."""

from __future__ import annotations

from litestar import Controller, get

from web.dependencies import optional_seat_of
from web.docs import BEARER, problems
from web.params import After, Authorization, Matches, MatchId
from web.schemas import EventEnvelope, EventFeed


class EventsController(Controller):
    path = "/matches/{match_id:uuid}/events"
    tags = ("play",)
    security = ({BEARER: []}, {})

    @get(
        "/",
        summary="The match's events after a version",
        responses=problems(400, 401, 403, 404),
    )
    async def list_events(
        self,
        match_id: MatchId,
        matches: Matches,
        after: After = 0,
        authorization: Authorization = None,
    ) -> EventFeed:
        """With a seat's token: as that seat may see them now (the opponent's stock draws
        without their card, the knock card hidden until the hand is over). Without one: as a
        spectator may see them."""
        seat = await optional_seat_of(matches, str(match_id), authorization)
        record = await matches.match(str(match_id))
        events = await matches.events(record, seat, after_version=after)
        return EventFeed(
            match_id=str(match_id),
            events=[EventEnvelope(version, event) for version, event in events],
        )
