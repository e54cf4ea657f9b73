"""Invites between players (``/players/me/invites``), accepting them (``/players/me/join``)
and rematches (``/players/me/matches/{match_id}/rematch``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, cast
from uuid import UUID

import msgspec
from litestar import Controller, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_201_CREATED
from msgspec import Meta

from domain import RuleOptions
from service.players.invites import MAX_EXPIRY, Invitations, Invited
from web.docs import problems
from web.params import Authorization, Matches, MatchId, Plays
from web.player_schemas import JoinAsPlayer
from web.players import PLAYER_CREDENTIAL, AccountsDependency, player_of
from web.schemas import Joined, SeatToken

InvitationsDependency = NamedDependency[Invitations]


def provide_invitations(state: State) -> Invitations:
    return cast(Invitations, state.invitations)


class CreateInvite(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``to_player_id``: only this player may accept, and their inbox tells them (without it,
    whoever has the code). ``expires_in``: seconds, at most a week; the server's default
    (a day unless configured) if left out, and shortened to the server's maximum if over it."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    to_player_id: UUID | None = None
    expires_in: Annotated[int, Meta(ge=1, le=int(MAX_EXPIRY.total_seconds()))] | None = None


class NewInvite(msgspec.Struct, frozen=True, kw_only=True):
    """You hold seat 0 (``seats``); the invited player joins seat 1 with ``invite_code``."""

    match_id: str
    seats: list[SeatToken]
    invite_code: str
    expires_at: datetime
    to_player_id: str | None
    rematch_of: str | None = None


def _new_invite(invited: Invited) -> NewInvite:
    assert invited.match.invite_code is not None
    return NewInvite(
        match_id=invited.match.match_id,
        seats=[SeatToken(seat, token) for seat, token in sorted(invited.match.tokens.items())],
        invite_code=invited.match.invite_code,
        expires_at=invited.expires_at,
        to_player_id=invited.to_player,
        rematch_of=invited.rematch_of,
    )


class InvitesController(Controller):
    path = "/players/me"
    tags = ("players",)
    security = ({PLAYER_CREDENTIAL: []},)

    @post(
        "/invites",
        status_code=HTTP_201_CREATED,
        summary="Invite a player, or anyone with the code",
        responses=problems(400, 401, 404, 422),
    )
    async def invite(
        self,
        data: JSONBody[CreateInvite],
        accounts: AccountsDependency,
        invitations: InvitationsDependency,
        authorization: Authorization = None,
    ) -> NewInvite:
        player = await player_of(accounts, authorization)
        invited = await invitations.invite(
            player,
            options=data.options,
            to_player=str(data.to_player_id) if data.to_player_id else None,
            expires_in=None if data.expires_in is None else timedelta(seconds=data.expires_in),
        )
        return _new_invite(invited)

    @post(
        "/matches/{match_id:uuid}/rematch",
        status_code=HTTP_201_CREATED,
        summary="Offer the opponent a rematch",
        responses=problems(400, 401, 403, 404, 409),
    )
    async def rematch(
        self,
        match_id: MatchId,
        accounts: AccountsDependency,
        invitations: InvitationsDependency,
        authorization: Authorization = None,
    ) -> NewInvite:
        """A new match with the same options, offered to the other player of this finished
        one (their inbox says ``rematch_offered``). Its first dealer is cut for, as in every
        match."""
        player = await player_of(accounts, authorization)
        return _new_invite(await invitations.rematch(player, str(match_id)))

    @post(
        "/join",
        status_code=HTTP_201_CREATED,
        summary="Join a match by invite code as this player",
        responses=problems(400, 401, 403, 404, 409, 410, 422),
    )
    async def join(
        self,
        data: JSONBody[JoinAsPlayer],
        accounts: AccountsDependency,
        invitations: InvitationsDependency,
        matches: Matches,
        plays: Plays,
        authorization: Authorization = None,
    ) -> Joined:
        """Accept an invite or a rematch: refused if it expired (410), was made to another
        player (403), or its match has already ended (409)."""
        player = await player_of(accounts, authorization)
        seated = await invitations.accept(player, data.invite_code)
        # The cut of a match of three or four seats waits for its last invited seat.
        record = await matches.match(seated.match_id)
        await plays.joined(record)
        return Joined(match_id=seated.match_id, seat=seated.seat, token=seated.token)
