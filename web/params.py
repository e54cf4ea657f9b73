"""The request parameters the controllers share, declared once for Litestar and OpenAPI."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar.di import NamedDependency
from litestar.params import HeaderParameter, PathParameter, QueryParameter

from service.bots.runner import BotRunner
from service.matches.play import MatchPlays
from service.matches.use_cases import MatchService
from service.ports.wakeups import Wakeups
from web.schemas import MAX_VERSION

MatchId = Annotated[UUID, PathParameter(name="match_id", description="The match's id")]
Matches = NamedDependency[MatchService]
WakeupsDependency = NamedDependency[Wakeups]
Bots = NamedDependency[BotRunner]
Plays = NamedDependency[MatchPlays]
Authorization = Annotated[
    str | None,
    HeaderParameter(name="Authorization", description="Bearer <a seat's token>"),
]
After = Annotated[
    int,
    QueryParameter(
        name="after", ge=0, le=MAX_VERSION, description="Only events after this version"
    ),
]
IfNoneMatch = Annotated[str | None, HeaderParameter(name="If-None-Match")]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match", description="The view's ETag: refused (412) if the match has moved on"
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        description="A retry with the same key returns the first answer and changes nothing",
    ),
]
LastEventId = Annotated[
    str | None,
    HeaderParameter(name="Last-Event-ID", description="Resume after this event's version"),
]
StreamTicketParameter = Annotated[
    str | None,
    QueryParameter(
        name="ticket",
        min_length=1,
        max_length=100,
        description="A single-use ticket from POST /matches/{match_id}/stream-tickets",
    ),
]
