"""``/rounds``: an operator creates a round of matches in one request, lists its rounds, reads
a round's results, and cancels a round.

Every route needs an operator key; a round is its operator's alone (another's is not found)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, cast
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED
from msgspec import Meta

from domain import RuleOptions
from domain.endings import MAX_REASON
from service.matches.use_cases import RoundMatch
from service.tournament.rounds import MAX_MATCHES, Rounds
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.paging import next_link
from web.params import IdempotencyKey, Matches, Plays
from web.results import MatchResult, result_of
from web.schemas import BotLevel, ExternalId, NewMatch, SeatToken

RoundsDependency = NamedDependency[Rounds]
RoundId = Annotated[UUID, PathParameter(name="round_id", description="The round's id")]


class RoundMatchRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One match of a round: ``players`` seats (3: round robin, 4: partnerships), and by seat,
    at most one each, ``external_player_ids`` and ``bots``."""

    external_ref: ExternalId | None = None
    players: Literal[2, 3, 4] = 2
    external_player_ids: Annotated[list[ExternalId | None], Meta(max_length=4)] = msgspec.field(
        default_factory=list
    )
    bots: Annotated[list[BotLevel | None], Meta(max_length=4)] = msgspec.field(default_factory=list)


class CreateRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A round: its matches share ``options``; ``clocks_start_at`` is when the clocks of all its
    matches start, where matches are played on a clock (kept and reported either way)."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    clocks_start_at: datetime | None = None
    matches: Annotated[list[RoundMatchRequest], Meta(min_length=1, max_length=MAX_MATCHES)]


class RoundMatchCreated(NewMatch, frozen=True, kw_only=True):
    external_ref: str | None = None


class NewRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    clocks_start_at: datetime | None
    matches: list[RoundMatchCreated]


class RoundResults(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    created_at: datetime
    clocks_start_at: datetime | None
    matches: list[MatchResult]  # in the order the round was created with


class ListedRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    created_at: datetime
    clocks_start_at: datetime | None
    match_ids: list[str]  # in the order the round was created with
    results: str  # GET it for every match's result


class RoundList(msgspec.Struct, frozen=True, kw_only=True):
    """``next`` (a cursor) is null on the last page."""

    rounds: list[ListedRound]
    next: str | None


class StartRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``clocks_start_at``: the new start, not past, earlier or later than the one set (on a
    turn clock, later by at most ``turn_seconds``); null or left out: now."""

    clocks_start_at: datetime | None = None


class StartedRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    clocks_start_at: datetime


class CancelRound(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Why the round is cancelled: kept in each match's ``match_ended`` event."""

    reason: Annotated[str, Meta(min_length=1, max_length=MAX_REASON)]


class CancelledMatch(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    cancelled: bool  # false: it had already ended, and keeps its ending
    result: str


class CancelledRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    matches: list[CancelledMatch]


def provide_rounds(state: State) -> Rounds:
    return cast(Rounds, state.rounds)


class RoundsController(Controller):
    path = "/rounds"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Create a round of matches, all or none",
        responses=problems(400, 401, 403, 409, 422),
    )
    async def create(
        self,
        data: JSONBody[CreateRound],
        operator_keys: Operators,
        rounds: RoundsDependency,
        authorization: OperatorAuthorization = None,
        idempotency_key: IdempotencyKey = None,
    ) -> NewRound:
        """Every match's seat tokens, in the order asked. With an ``Idempotency-Key``, a retry
        of the same body returns the same round and tokens (for 24 hours). Needs
        ``matches:create``."""
        operator = await operator_for(operator_keys, authorization, "matches:create")
        asked = [
            RoundMatch(
                external_ref=m.external_ref,
                players=m.players,
                external_player_ids=m.external_player_ids,
                bots=m.bots,
            )
            for m in data.matches
        ]
        made = await rounds.create(
            operator.operator_id,
            options=data.options,
            start_at=data.clocks_start_at,
            matches=asked,
            idempotency_key=idempotency_key,
            request=data,
        )
        return NewRound(
            round_id=made.round_id,
            clocks_start_at=made.start_at,
            matches=[
                RoundMatchCreated(
                    match_id=m.match_id,
                    external_ref=a.external_ref,
                    seats=[SeatToken(seat, token) for seat, token in sorted(m.tokens.items())],
                    commitment=m.commitment,
                )
                for m, a in zip(made.matches, asked, strict=True)
            ],
        )

    @get("/", summary="Your rounds, oldest first, paged", responses=problems(400, 401, 403))
    async def list_rounds(
        self,
        request: Request[Any, Any, Any],
        operator_keys: Operators,
        rounds: RoundsDependency,
        authorization: OperatorAuthorization = None,
        created_from: Annotated[datetime | None, QueryParameter(description="inclusive")] = None,
        created_before: Annotated[datetime | None, QueryParameter(description="exclusive")] = None,
        cursor: Annotated[str | None, QueryParameter(max_length=500)] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=500, description="Page size")] = 100,
    ) -> Response[RoundList]:
        """In creation order; pass ``next`` as ``cursor``, or follow the ``Link`` header's
        ``rel="next"`` (absent on the last page). Needs ``matches:read``."""
        operator = await operator_for(operator_keys, authorization, "matches:read")
        page = await rounds.page(
            operator.operator_id,
            created_from=created_from,
            created_before=created_before,
            cursor=cursor,
            limit=limit,
        )
        listed = RoundList(
            rounds=[
                ListedRound(
                    round_id=r.round_id,
                    created_at=r.created_at,
                    clocks_start_at=r.start_at,
                    match_ids=list(r.match_ids),
                    results=f"/rounds/{r.round_id}",
                )
                for r in page.rounds
            ],
            next=page.next,
        )
        headers = {} if page.next is None else next_link(request, "cursor", page.next)
        return Response(listed, headers=headers)

    @post(
        "/{round_id:uuid}/start",
        status_code=HTTP_200_OK,
        summary="Start a round now, or move its start",
        responses=problems(400, 401, 403, 404, 409, 422),
    )
    async def start(
        self,
        round_id: RoundId,
        data: JSONBody[StartRound],
        operator_keys: Operators,
        rounds: RoundsDependency,
        authorization: OperatorAuthorization = None,
    ) -> StartedRound:
        """``{}`` starts the round now; ``{"clocks_start_at": ...}`` moves its start to that
        time, earlier or later, which must not be past (422). On a turn clock a start goes
        later by at most ``turn_seconds`` (422 otherwise: further, the wait would be charged
        to a bank; cancel the round and create it again). Every match not yet over has its
        clocks stamped again at the new start, and takes moves from then. A round already
        under way is refused (409 ``round-started``). Needs ``matches:create``."""
        operator = await operator_for(operator_keys, authorization, "matches:create")
        start = await rounds.move_start(operator.operator_id, str(round_id), data.clocks_start_at)
        return StartedRound(round_id=str(round_id), clocks_start_at=start)

    @post(
        "/{round_id:uuid}/cancel",
        status_code=HTTP_200_OK,
        summary="Cancel a round: every match still being played ends, voided",
        responses=problems(400, 401, 403, 404, 409, 422),
    )
    async def cancel(
        self,
        round_id: RoundId,
        data: JSONBody[CancelRound],
        operator_keys: Operators,
        rounds: RoundsDependency,
        authorization: OperatorAuthorization = None,
    ) -> CancelledRound:
        """Each match not yet over ends with ``match_ended`` (reason ``voided``, no
        winner, your ``reason`` kept), as ``POST /matches/{id}/adjudication`` with
        ``"verdict": "void"`` ends one; its result, the feed and webhooks tell it. A match
        already over keeps its ending. Repeating the call changes nothing more. Needs
        ``matches:adjudicate``."""
        operator = await operator_for(operator_keys, authorization, "matches:adjudicate")
        done = await rounds.cancel(operator.operator_id, str(round_id), data.reason)
        return CancelledRound(
            round_id=str(round_id),
            matches=[
                CancelledMatch(
                    match_id=c.match_id,
                    cancelled=c.cancelled,
                    result=f"/matches/{c.match_id}/result",
                )
                for c in done
            ],
        )

    @get(
        "/{round_id:uuid}",
        summary="A round's results, match by match",
        responses=problems(400, 401, 403, 404),
    )
    async def results(
        self,
        round_id: RoundId,
        operator_keys: Operators,
        rounds: RoundsDependency,
        matches: Matches,
        plays: Plays,
        authorization: OperatorAuthorization = None,
    ) -> RoundResults:
        """Each match's result as ``GET /matches/{id}/result`` gives it. Needs
        ``matches:read``."""
        operator = await operator_for(operator_keys, authorization, "matches:read")
        found = await rounds.get(operator.operator_id, str(round_id))
        return RoundResults(
            round_id=found.round_id,
            created_at=found.created_at,
            clocks_start_at=found.start_at,
            matches=[await result_of(matches, plays, match_id) for match_id in found.match_ids],
        )
