"""The view of a match as one seat may see it, and rendering it for a response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litestar import Controller, Response, get
from litestar.datastructures import State
from litestar.status_codes import HTTP_304_NOT_MODIFIED
from msgspec.structs import asdict

from domain.match_rules import Shape, rules_for
from service.fairness.log import fairness_view
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded
from web.dependencies import provide_matches, seated
from web.docs import BEARER, problems
from web.etags import tag_of, view_etag
from web.params import Authorization, IfNoneMatch, MatchId
from web.players import provide_accounts
from web.schemas import AnyMatchView, FormatMatchView, MatchView

VIEW_OF_SHAPE: dict[Shape, type[AnyMatchView]] = {
    "two_players": MatchView,
    "three_or_four_players": FormatMatchView,
}


def seat_view(
    match: RegisteredMatch, seat: int, loaded: Loaded[Any], names: Mapping[int, str]
) -> Response[AnyMatchView]:
    """The view's response for a match of any table size: the one place a view's shape is
    chosen, by the shape the match's rules give it. ``names``: the display names of the seats player
    accounts hold."""
    state = loaded.state
    rules = rules_for(len(match.seats))
    body = VIEW_OF_SHAPE[rules.shape](
        **asdict(rules.view(state, seat)),
        match_id=match.match_id,
        version=loaded.version,
        fairness=fairness_view(match, state),
        display_names=[names.get(s.seat) for s in match.seats],
    )
    return Response(body, headers={"ETag": view_etag(loaded.version, seat)})


class ViewController(Controller):
    path = "/matches/{match_id:uuid}/view"
    tags = ("play",)
    security = ({BEARER: []},)

    @get(
        "/",
        summary="Your seat's view of the match",
        responses=problems(400, 401, 403, 404),
    )
    async def get_view(
        self,
        match_id: MatchId,
        state: State,
        authorization: Authorization = None,
        if_none_match: IfNoneMatch = None,
    ) -> Response[AnyMatchView]:
        """Your hand, what you know of the table, the scores, whose turn it is and the
        commands you may send now (``legal_actions``). ``ETag`` names the version.
        ``If-None-Match`` with an ETag of this match (any seat's) says the version you have
        seen: the answer is at least that new, and 304 if it is your seat's at that version."""
        # Read from the app state, not injected: Litestar resolves two or more dependencies in
        # a task group, a task each.
        matches = provide_matches(state)
        by = await seated(matches, str(match_id), authorization)
        tag = tag_of(if_none_match)
        loaded = await matches.seen_after(by.match, None if tag is None else tag[0])
        if tag is not None and tag[0] == loaded.version and tag[1] in (None, by.seat):
            return Response(
                None,  # type: ignore[arg-type]
                status_code=HTTP_304_NOT_MODIFIED,
                headers={"ETag": view_etag(loaded.version, by.seat)},
            )
        names = await provide_accounts(state).seat_names(by.match)
        return seat_view(by.match, by.seat, loaded, names)
