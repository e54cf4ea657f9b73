"""``GET /feed``: the public events of every match, one cursor for all of them."""

from __future__ import annotations

from typing import Annotated, Any, cast
from uuid import UUID

from litestar import Controller, Request, Response, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import QueryParameter
from msgspec import Meta

from service.tournament.feed import FeedPage, GlobalFeed
from service.tournament.feed_scope import feed_scope
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.paging import next_link
from web.schemas import MAX_VERSION, NO_NUL

Feed = NamedDependency[GlobalFeed]
Position = Annotated[
    int,
    QueryParameter(
        name="after",
        ge=0,
        le=MAX_VERSION,
        description="The `next` of the previous page (0: from the beginning of the log)",
    ),
]
Limit = Annotated[int, QueryParameter(name="limit", ge=1, le=1000, description="Page size")]


def provide_feed(state: State) -> GlobalFeed:
    return cast(GlobalFeed, state.feed)


class FeedController(Controller):
    path = "/feed"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @get("/", summary="Every match's public events, in order", responses=problems(400, 401, 403))
    async def page(
        self,
        request: Request[Any, Any, Any],
        operator_keys: Operators,
        feed: Feed,
        authorization: OperatorAuthorization = None,
        after: Position = 0,
        limit: Limit = 100,
        match_id: Annotated[UUID | None, QueryParameter(description="Only this match")] = None,
        external_ref: Annotated[
            str | None,
            QueryParameter(
                max_length=200, pattern=NO_NUL, description="Only your match with this ref"
            ),
        ] = None,
        types: Annotated[
            list[Annotated[str, Meta(max_length=50)]] | None,
            QueryParameter(name="type", description="Only these event types (repeatable)"),
        ] = None,
    ) -> Response[FeedPage]:
        """Pages the store's global log without gaps: pass each page's ``next`` as ``after``
        (a filtered page may hold fewer entries than ``limit``, or none, while ``next`` moves
        on). Each entry is shown as a spectator of its match may see it now. Needs
        ``feed:read``; shows your own matches only, unless the key also holds ``feed:all``.
        The ``Link`` header's ``rel="next"`` is the following page with every filter kept
        (the feed has no last page: it may hold nothing yet)."""
        operator = await operator_for(operator_keys, authorization, "feed:read")
        scope = await feed_scope(
            operator,
            feed.known,
            match_id=None if match_id is None else str(match_id),
            external_ref=external_ref,
            types=types or (),
        )
        page = await feed.page(after=after, limit=limit, scope=scope)
        return Response(page, headers=next_link(request, "after", page.next))
