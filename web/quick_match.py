"""``/players/me/quick-match``: be paired with the next players who want the same options and
table size."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, cast

import msgspec
from litestar import Controller, delete, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK, HTTP_204_NO_CONTENT

from domain import RuleOptions
from service.players.quick_match import QuickMatch, QuickMatchStatus
from web.docs import problems
from web.params import Authorization
from web.players import PLAYER_CREDENTIAL, AccountsDependency, player_of

QuickMatchDependency = NamedDependency[QuickMatch]


def provide_quick_match(state: State) -> QuickMatch:
    return cast(QuickMatch, state.quick_match)


class AskQuickMatch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``players``: the table size (2, 3 or 4); only askers of the same size and options are
    paired."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    players: Literal[2, 3, 4] = 2


class QuickMatchAnswer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """``paired``: play ``match_id`` in ``seat`` with your credential. ``waiting``: until
    ``expires_at``; your inbox says ``match_started`` when someone pairs with you."""

    status: Literal["waiting", "paired", "expired"]
    expires_at: datetime
    match_id: str | None = None
    seat: int | None = None


def _answer(status: QuickMatchStatus) -> QuickMatchAnswer:
    return QuickMatchAnswer(
        status=status.status,
        expires_at=status.expires_at,
        match_id=status.match_id,
        seat=status.seat,
    )


class QuickMatchController(Controller):
    path = "/players/me/quick-match"
    tags = ("players",)
    security = ({PLAYER_CREDENTIAL: []},)

    @post(
        "/",
        status_code=HTTP_200_OK,
        summary="Ask for a quick match",
        responses=problems(400, 401, 409, 422),
    )
    async def ask(
        self,
        data: JSONBody[AskQuickMatch],
        accounts: AccountsDependency,
        quick_match: QuickMatchDependency,
        authorization: Authorization = None,
    ) -> QuickMatchAnswer:
        """Paired at once with the players who have waited longest for the same options and
        table size (as many as the table needs), or queued. Asking again while waiting is
        refused (409)."""
        player = await player_of(accounts, authorization)
        return _answer(await quick_match.ask(player, data.options, data.players))

    @get("/", summary="My quick match", responses=problems(400, 401, 404))
    async def status(
        self,
        accounts: AccountsDependency,
        quick_match: QuickMatchDependency,
        authorization: Authorization = None,
    ) -> QuickMatchAnswer:
        player = await player_of(accounts, authorization)
        return _answer(await quick_match.status(player))

    @delete(
        "/",
        status_code=HTTP_204_NO_CONTENT,
        summary="Stop waiting for a quick match",
        responses=problems(400, 401, 404),
    )
    async def cancel(
        self,
        accounts: AccountsDependency,
        quick_match: QuickMatchDependency,
        authorization: Authorization = None,
    ) -> None:
        player = await player_of(accounts, authorization)
        await quick_match.cancel(player)
