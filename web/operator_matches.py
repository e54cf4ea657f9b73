"""``/operator/matches``: an operator's own matches, by external ref or listed with filters.

Needs ``matches:read``; another operator's matches are never found here."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, cast
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from service.tournament.matches import Listed, MatchFilter, OperatorMatches, Status
from web.docs import problems
from web.matches import players
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.paging import next_link
from web.schemas import NO_NUL, Player

OperatorMatchesDependency = NamedDependency[OperatorMatches]
ExternalRef = Annotated[
    str,
    QueryParameter(
        name="external_ref", min_length=1, max_length=200, pattern=NO_NUL, description="Yours"
    ),
]
Limit = Annotated[int, QueryParameter(name="limit", ge=1, le=500, description="Page size")]


class ListedMatch(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    external_ref: str | None
    round_id: str | None
    created_at: datetime
    status: Status
    players: list[Player]
    result: str


class MatchList(msgspec.Struct, frozen=True, kw_only=True):
    """A page may hold fewer than ``limit`` matches; ``next`` (a cursor) is null at the end."""

    matches: list[ListedMatch]
    next: str | None


def provide_operator_matches(state: State) -> OperatorMatches:
    return cast(OperatorMatches, state.operator_matches)


class OperatorMatchesController(Controller):
    path = "/operator/matches"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @get("/", summary="Your matches, filtered and paged", responses=problems(400, 401, 403))
    async def list_matches(
        self,
        request: Request[Any, Any, Any],
        operator_keys: Operators,
        operator_matches: OperatorMatchesDependency,
        authorization: OperatorAuthorization = None,
        status: Annotated[Status | None, QueryParameter()] = None,
        external_ref_prefix: Annotated[
            str | None, QueryParameter(max_length=200, pattern=NO_NUL)
        ] = None,
        created_from: Annotated[datetime | None, QueryParameter(description="inclusive")] = None,
        created_before: Annotated[datetime | None, QueryParameter(description="exclusive")] = None,
        round_id: Annotated[UUID | None, QueryParameter(description="Only this round's")] = None,
        external_player_id: Annotated[
            str | None,
            QueryParameter(
                min_length=1, max_length=200, pattern=NO_NUL, description="Only this player's"
            ),
        ] = None,
        cursor: Annotated[str | None, QueryParameter(max_length=500)] = None,
        limit: Limit = 100,
    ) -> Response[MatchList]:
        """In creation order; pass ``next`` as ``cursor`` for the following page, or follow
        the ``Link`` header's ``rel="next"`` (absent on the last page)."""
        operator = await operator_for(operator_keys, authorization, "matches:read")
        page = await operator_matches.page(
            operator.operator_id,
            MatchFilter(
                status=status,
                external_ref_prefix=external_ref_prefix,
                created_from=created_from,
                created_before=created_before,
                round_id=None if round_id is None else str(round_id),
                external_player_id=external_player_id,
            ),
            cursor=cursor,
            limit=limit,
        )
        listed = MatchList(matches=[_listed(m) for m in page.matches], next=page.next)
        headers = {} if page.next is None else next_link(request, "cursor", page.next)
        return Response(listed, headers=headers)

    @get(
        "/by-ref",
        summary="Your match with this external ref",
        responses=problems(400, 401, 403, 404),
    )
    async def by_ref(
        self,
        external_ref: ExternalRef,
        operator_keys: Operators,
        operator_matches: OperatorMatchesDependency,
        authorization: OperatorAuthorization = None,
    ) -> ListedMatch:
        operator = await operator_for(operator_keys, authorization, "matches:read")
        return _listed(await operator_matches.by_external_ref(operator.operator_id, external_ref))


def _listed(listed: Listed) -> ListedMatch:
    match = listed.match
    return ListedMatch(
        match_id=match.match_id,
        external_ref=match.external_ref,
        round_id=match.round_id,
        created_at=match.created_at,
        status=listed.status,
        players=players(match, {}),
        result=f"/matches/{match.match_id}/result",
    )
