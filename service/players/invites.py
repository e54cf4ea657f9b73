"""Invites between players, and rematches.

An invite is a match with an open seat, as ``POST /matches`` with ``invite`` makes, plus who
made it, an expiry, and (optionally) the one player it is for, who finds it in their inbox. A
rematch is an invite to the opponent of a finished match, with the same options, linked to it.
Every match's first dealer is chosen by the cut (docs RULES, "Choosing the first dealer"), so
a rematch, being a new match, cuts again rather than carrying a dealer over.

Accepting checks the expiry and the recipient before the seat is taken, so a refusal changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import msgspec

from domain import Phase, RuleOptions
from service.errors import (
    InviteExpired,
    InviteNotForYou,
    PlayerNotFound,
    RematchNotAvailable,
    WrongToken,
)
from service.matches import tokens
from service.matches.use_cases import CreatedMatch, SeatToken
from service.players.accounts import Accounts
from service.players.projector import NoticeBody, notice
from service.players.settings import INVITE_CEILING_SECONDS, PlayerTimes
from service.ports.player_invites import PlayerInvite, PlayerInvites
from service.ports.players import NoticeKind, Player

MAX_EXPIRY = timedelta(seconds=INVITE_CEILING_SECONDS)
DEFAULT_TIMES = PlayerTimes()


class Invited(msgspec.Struct, frozen=True, kw_only=True):
    match: CreatedMatch
    expires_at: datetime
    to_player: str | None
    rematch_of: str | None = None


class Invitations:
    def __init__(
        self,
        invites: PlayerInvites,
        accounts: Accounts,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        times: PlayerTimes = DEFAULT_TIMES,
    ) -> None:
        self._invites = invites
        self._accounts = accounts
        self._clock = clock
        self._times = times

    async def invite(
        self,
        player: Player,
        *,
        options: RuleOptions,
        to_player: str | None = None,
        expires_in: timedelta | None = None,
    ) -> Invited:
        """``expires_in``: the configured default if None; at most the configured maximum."""
        if to_player is not None and (
            to_player == player.player_id or await self._accounts.players.get(to_player) is None
        ):
            raise PlayerNotFound(f"there is no other player {to_player}")
        return await self._offer(player, options, to_player, expires_in, None)

    async def rematch(self, player: Player, match_id: str) -> Invited:
        """Offer the opponent of the finished ``match_id`` a new match with the same options."""
        record = await self._accounts.matches.match(match_id)
        holders = await self._accounts.players.holders(match_id)
        mine = [h for h in holders if h.player_id == player.player_id]
        if not mine:
            raise WrongToken("this player holds no seat in this match")
        opponent = [h.player_id for h in holders if h.seat != mine[0].seat]
        state = (await self._accounts.matches.load(record)).state
        if state.phase is not Phase.MATCH_OVER or not opponent:
            raise RematchNotAvailable(
                "a rematch needs a finished match whose other seat a player holds"
            )
        return await self._offer(player, state.options, opponent[0], None, match_id)

    async def _offer(
        self,
        player: Player,
        options: RuleOptions,
        to_player: str | None,
        expires_in: timedelta | None,
        rematch_of: str | None,
    ) -> Invited:
        asked = self._times.invite if expires_in is None else expires_in
        expires_at = self._clock() + min(asked, self._times.invite_max)
        created = await self._accounts.create_match(player, options=options)
        assert created.invite_code is not None
        kind: NoticeKind = "rematch_offered" if rematch_of else "invitation_received"
        body = NoticeBody(
            kind=kind,
            match_id=created.match_id,
            seat=1,
            invite_code=created.invite_code,
            from_player=player.display_name,
            expires_at=expires_at.isoformat(),
            rematch_of=rematch_of,
        )
        await self._invites.add(
            PlayerInvite(
                code_hash=tokens.secret_hash(created.invite_code),
                match_id=created.match_id,
                from_player=player.player_id,
                to_player=to_player,
                expires_at=expires_at,
                rematch_of=rematch_of,
            ),
            notice(to_player, body) if to_player else None,
        )
        return Invited(
            match=created, expires_at=expires_at, to_player=to_player, rematch_of=rematch_of
        )

    async def check(self, player_id: str | None, invite_code: str) -> None:
        """Refuse an invite that has expired or is for another player (``player_id`` None:
        someone with no player account)."""
        invite = await self._invites.get(tokens.secret_hash(invite_code))
        if invite is None:
            return  # an invite of ``POST /matches``: open to whoever has the code
        if invite.expires_at <= self._clock():
            raise InviteExpired(f"the invite expired at {invite.expires_at.isoformat()}")
        if invite.to_player is not None and invite.to_player != player_id:
            raise InviteNotForYou("this invite was made to another player")

    async def accept(self, player: Player, invite_code: str) -> SeatToken:
        await self.check(player.player_id, invite_code)
        return await self._accounts.join(player, invite_code)
