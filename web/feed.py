"""``GET /feed``: the public events of every match, one cursor for all of them."""

from __future__ import annotations

from typing import Annotated, cast

from litestar import Controller, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from service.tournament.feed import FeedPage, GlobalFeed
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.schemas import MAX_VERSION

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
        operator_keys: Operators,
        feed: Feed,
        authorization: OperatorAuthorization = None,
        after: Position = 0,
        limit: Limit = 100,
    ) -> FeedPage:
        """Pages the store's global log without gaps: pass each page's ``next`` as ``after``.
        Each entry is shown as a spectator of its match may see it now. Needs ``feed:read``."""
        await operator_for(operator_keys, authorization, "feed:read")
        return await feed.page(after=after, limit=limit)
