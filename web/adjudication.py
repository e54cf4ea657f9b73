"""``POST /matches/{id}/adjudication``: an operator with ``matches:adjudicate`` ends one of its
own matches (forfeit a seat, award it, or void it), for a reason kept in the record."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, post
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK
from msgspec import Meta
from msgspec.structs import asdict

from domain import TableView
from domain.commands import Verdict
from domain.endings import MAX_REASON
from domain.match_rules import Shape
from domain.tables import FormatTableView
from service.matches.adjudication import adjudicate
from web.docs import problems
from web.operators import OPERATOR_KEY, OperatorAuthorization, Operators, operator_for
from web.params import Matches, MatchId
from web.schemas import THREE_OR_FOUR_PLAYERS, TWO_PLAYERS


class Adjudication(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``forfeit``: ``seat`` loses (at four players, its team); ``award``: ``seat`` wins (its
    team at four players); ``void``: nobody wins (no seat)."""

    verdict: Verdict
    seat: int | None = None
    reason: Annotated[str, Meta(min_length=1, max_length=MAX_REASON)]


class AdjudicatedTable(TableView, frozen=True, kw_only=True, tag_field="kind", tag=TWO_PLAYERS):
    """A two-player match's public table once adjudicated."""


class AdjudicatedFormatTable(
    FormatTableView, frozen=True, kw_only=True, tag_field="kind", tag=THREE_OR_FOUR_PLAYERS
):
    """A three- or four-player match's public table once adjudicated."""


ADJUDICATED_OF_SHAPE: dict[Shape, type[AdjudicatedTable | AdjudicatedFormatTable]] = {
    "two_players": AdjudicatedTable,
    "three_or_four_players": AdjudicatedFormatTable,
}


class AdjudicationController(Controller):
    path = "/matches/{match_id:uuid}/adjudication"
    tags = ("tournament",)
    security = ({OPERATOR_KEY: []},)

    @post(
        "/",
        status_code=HTTP_200_OK,
        summary="End one of your matches by adjudication",
        responses=problems(400, 401, 403, 404, 409, 422),
    )
    async def adjudicate(
        self,
        match_id: MatchId,
        data: JSONBody[Adjudication],
        matches: Matches,
        operator_keys: Operators,
        authorization: OperatorAuthorization = None,
    ) -> AdjudicatedTable | AdjudicatedFormatTable:
        """The match's public table once it has ended; its ``ending`` names the verdict and
        ``kind`` the table's shape (``two_players`` or ``three_or_four_players``)."""
        operator = await operator_for(operator_keys, authorization, "matches:adjudicate")
        after = await adjudicate(
            matches,
            str(match_id),
            operator.operator_id,
            verdict=data.verdict,
            seat=data.seat,
            reason=data.reason,
        )
        rules = matches.rules_for(await matches.match(str(match_id)))
        return ADJUDICATED_OF_SHAPE[rules.shape](**asdict(rules.public_view(after.state)))
