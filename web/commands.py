"""``POST /matches/{id}/commands``: a seat plays one command; the answer is its new view."""

from __future__ import annotations

from dataclasses import dataclass

from litestar import Controller, Response, post
from litestar.datastructures import ResponseHeader, State
from litestar.openapi.spec import (
    OpenAPIMediaType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.params import RawBody
from litestar.status_codes import HTTP_200_OK

from domain.commands import SeatCommand
from service.errors import InvalidParameter
from service.matches.use_cases import CommandRequest
from web.checkpoints import provide_notary
from web.command_parsing import parse_seat_command
from web.dependencies import provide_matches, provide_plays, seated
from web.docs import BEARER, problems
from web.etags import version_of
from web.params import Authorization, IdempotencyKey, IfMatch, MatchId
from web.players import provide_accounts
from web.schemas import AnyMatchView
from web.views import seat_view

MAX_IDEMPOTENCY_KEY = 200
RECEIPT_HEADER = "Gin-Receipt"
RECEIPT = ResponseHeader(
    name=RECEIPT_HEADER,
    description="A signed receipt of the command's append: the version it reached and the "
    "match stream's head, blinded until the hand ends (base64 of a signed note; "
    "see docs/audit.md). Keep it: `gin audit --receipt` finds any later rewrite.",
    documentation_only=True,
)


COMMAND_BODY = RequestBody(
    required=True,
    description='One command, e.g. {"type": "discard", "card": "7h"}, as listed in a view\'s '
    "legal_actions; seat may be left out (it must be the token's seat).",
    content={
        "application/json": OpenAPIMediaType(
            schema=Schema(
                one_of=[
                    Reference(f"#/components/schemas/{cls.__name__}")
                    for cls in SeatCommand.__args__
                ]
            )
        )
    },
)


@dataclass
class CommandOperation(Operation):
    """The body is read raw and parsed by ``parse_seat_command`` (for precise refusals), so
    its schema is declared here rather than inferred from the handler's signature."""

    def __post_init__(self) -> None:
        self.request_body = COMMAND_BODY


class CommandsController(Controller):
    path = "/matches/{match_id:uuid}/commands"
    tags = ("play",)
    security = ({BEARER: []},)

    @post(
        "/",
        status_code=HTTP_200_OK,
        summary="Play a command",
        operation_class=CommandOperation,
        responses=problems(400, 401, 403, 404, 409, 412, 422),
        response_headers=[RECEIPT],
    )
    async def play(
        self,
        match_id: MatchId,
        body: RawBody,
        state: State,
        authorization: Authorization = None,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[AnyMatchView]:
        """Answered only once the command's events are committed, with the seat's new view."""
        # Read from the app state, not injected: Litestar resolves two or more dependencies in
        # a task group, a task each, which cost about a tenth of a command's server CPU.
        by = await seated(provide_matches(state), str(match_id), authorization)
        key = _checked_key(idempotency_key)
        request = CommandRequest(
            command=parse_seat_command(body, by.seat),
            idempotency_key=key,
            if_match=version_of(if_match),
        )
        plays = provide_plays(state)
        played = await plays.command(by.match, by.seat, request)
        receipt = await provide_notary(state).receipt(by.match, played.reached)
        names = await provide_accounts(state).seat_names(by.match)
        response = seat_view(by.match, by.seat, played.answered, names)
        if receipt is not None:
            response.headers[RECEIPT_HEADER] = receipt
        return response


def _checked_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise InvalidParameter(
            f"an Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} printable characters"
        )
    return key
