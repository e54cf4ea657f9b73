"""``POST /matches/{id}/seats/{seat}/token``: an operator gives a seat of its own match a new
token, the old one refused from then on (``service.tournament.seat_tokens``)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, post
from litestar.params import PathParameter
from litestar.status_codes import HTTP_201_CREATED

from service.tournament.seat_tokens import reissue_seat_token
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.params import Matches, MatchId

Seat = Annotated[int, PathParameter(name="seat", ge=0, le=3, description="The seat")]


class ReissuedToken(msgspec.Struct, frozen=True, kw_only=True):
    """``token`` is shown once: the server keeps only its hash."""

    match_id: str
    seat: int
    token: str


class SeatTokenController(Controller):
    path = "/matches/{match_id:uuid}/seats/{seat:int}/token"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Give a seat of your match a new token (the old one stops working)",
        responses=problems(400, 401, 403, 404),
    )
    async def reissue(
        self,
        match_id: MatchId,
        seat: Seat,
        matches: Matches,
        operator_keys: Operators,
        authorization: OperatorAuthorization = None,
    ) -> ReissuedToken:
        """For a player whose token was lost or leaked: the old token is refused from the
        next request on. Needs ``matches:create`` and a match your key's operator created."""
        operator = await operator_for(operator_keys, authorization, "matches:create")
        token = await reissue_seat_token(matches, str(match_id), operator.operator_id, seat)
        return ReissuedToken(match_id=str(match_id), seat=seat, token=token)
