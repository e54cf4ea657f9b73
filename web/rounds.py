"""``/rounds``: an operator creates a round of matches in one request, and reads its results.

Every route needs an operator key; a round is its operator's alone (another's is not found)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, cast
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter
from litestar.status_codes import HTTP_201_CREATED
from msgspec import Meta

from domain import RuleOptions
from service.matches.use_cases import RoundMatch
from service.tournament.rounds import MAX_MATCHES, Rounds
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
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
