"""Invites between players (``/players/me/invites``), accepting them (``/players/me/join``)
and rematches (``/players/me/matches/{match_id}/rematch``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal, cast
from uuid import UUID

import msgspec
from litestar import Controller, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_201_CREATED
from msgspec import Meta

from domain import RuleOptions
from service.errors import InvalidParameter
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
    """A match of ``players`` seats: you hold seat 0, every other seat is open to an invited
    player. ``to_player_ids`` (by seat, from seat 1): only that player may take the seat, and
    their inbox tells them (a seat left out, or null, is for whoever has its code);
    ``to_player_id`` is the same for seat 1 alone. ``expires_in``: seconds, at most a week;
    the server's default (a day unless configured) if left out, and shortened to the
    server's maximum if over it."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    players: Literal[2, 3, 4] = 2
    to_player_id: UUID | None = None
    to_player_ids: Annotated[list[UUID | None], Meta(max_length=3)] = msgspec.field(
        default_factory=list
    )
    expires_in: Annotated[int, Meta(ge=1, le=int(MAX_EXPIRY.total_seconds()))] | None = None


class PlayerSeatInvite(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    invite_code: str
    to_player_id: str | None  # the one player who may take the seat, if any


class NewInvite(msgspec.Struct, frozen=True, kw_only=True):
    """You hold seat 0 (``seats``); each invited player joins their seat with its code in
    ``invites`` (``invite_code`` and ``to_player_id``: seat 1's)."""

    match_id: str
    seats: list[SeatToken]
    invite_code: str
    expires_at: datetime
    to_player_id: str | None
    rematch_of: str | None = None
    invites: list[PlayerSeatInvite] = msgspec.field(default_factory=list)


def _new_invite(invited: Invited) -> NewInvite:
    codes = sorted(invited.match.invite_codes.items())
    first_seat, first_code = codes[0]
    return NewInvite(
        match_id=invited.match.match_id,
        seats=[SeatToken(seat, token) for seat, token in sorted(invited.match.tokens.items())],
        invite_code=first_code,
        expires_at=invited.expires_at,
        to_player_id=invited.to_players.get(first_seat),
        rematch_of=invited.rematch_of,
        invites=[
            PlayerSeatInvite(seat=seat, invite_code=code, to_player_id=invited.to_players[seat])
            for seat, code in codes
        ],
    )


def to_players(data: CreateInvite) -> list[str | None]:
    if data.to_player_id is not None and data.to_player_ids:
        raise InvalidParameter("send to_player_id (seat 1) or to_player_ids, not both")
    if data.to_player_id is not None:
        return [str(data.to_player_id)]
    return [None if to is None else str(to) for to in data.to_player_ids]


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
            players=data.players,
            to_players=to_players(data),
            expires_in=None if data.expires_in is None else timedelta(seconds=data.expires_in),
        )
        return _new_invite(invited)

    @post(
        "/matches/{match_id:uuid}/rematch",
        status_code=HTTP_201_CREATED,
        summary="Offer the other players a rematch",
        responses=problems(400, 401, 403, 404, 409),
    )
    async def rematch(
        self,
        match_id: MatchId,
        accounts: AccountsDependency,
        invitations: InvitationsDependency,
        authorization: Authorization = None,
    ) -> NewInvite:
        """A new match with the same options and table size, offered to the other players of
        this finished one (their inboxes say ``rematch_offered``), bots where bots played. Its
        first dealer is cut for, as in every match."""
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
