"""Invites between players, and rematches.

An invite is a match with open seats, as ``POST /matches`` with ``invite`` makes, plus who made
it, an expiry, and (optionally) for each open seat the one player it is for, who finds it in
their inbox. A rematch is an invite to the other players of a finished match, with the same
options and table size (bots where bots played), linked to it.
Every match's first dealer is chosen by the cut (docs RULES, "Choosing the first dealer"), so
a rematch, being a new match, cuts again rather than carrying a dealer over.

Accepting checks the expiry and the recipient before the seat is taken, so a refusal changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta

import msgspec

from domain import RuleOptions
from service.errors import (
    InvalidParameter,
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
    to_players: dict[int, str | None]  # by invited seat: the one player it is for, if any
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
        players: int = 2,
        to_players: Sequence[str | None] = (),
        expires_in: timedelta | None = None,
    ) -> Invited:
        """A match of ``players`` seats with the player in seat 0 and every other seat open to
        an invited player: ``to_players[i]`` (if given and not None) alone may take seat
        ``i + 1``. ``expires_in``: the configured default if None; at most the configured
        maximum."""
        if len(to_players) > players - 1:
            raise InvalidParameter(f"a match of {players} seats invites {players - 1} at most")
        named = [to for to in to_players if to is not None]
        if len(set(named)) != len(named):
            raise InvalidParameter("each invited seat is for a different player")
        for to_player in named:
            if to_player == player.player_id or await self._accounts.players.get(to_player) is None:
                raise PlayerNotFound(f"there is no other player {to_player}")
        seats: dict[int, str | None] = dict.fromkeys(range(1, players))
        seats.update(enumerate(to_players, 1))
        return await self._offer(player, options, seats, (), expires_in, None)

    async def rematch(self, player: Player, match_id: str) -> Invited:
        """Offer the other players of the finished ``match_id`` a new match with the same
        options and table, bots in the seats they played."""
        matches = self._accounts.matches
        record = await matches.match(match_id)
        holders = {h.seat: h.player_id for h in await self._accounts.players.holders(match_id)}
        mine = [seat for seat, holder in holders.items() if holder == player.player_id]
        if not mine:
            raise WrongToken("this player holds no seat in this match")
        state = (await matches.load(record)).state
        others = [seat for seat in record.seats if seat.seat != mine[0]]
        if (
            not matches.rules_for(record).over(state)
            or not all(seat.seat in holders or seat.bot for seat in others)
            or all(seat.bot for seat in others)
        ):
            raise RematchNotAvailable(
                "a rematch needs a finished match whose other seats players hold (bots may "
                "hold some)"
            )
        # The one who asks takes seat 0; the others keep their order after it.
        bots = [None, *(seat.bot for seat in others)]
        to_players: dict[int, str | None] = {
            index: holders[seat.seat] for index, seat in enumerate(others, 1) if seat.bot is None
        }
        return await self._offer(player, state.options, to_players, bots, None, match_id)

    async def _offer(
        self,
        player: Player,
        options: RuleOptions,
        to_players: dict[int, str | None],
        bots: Sequence[str | None],
        expires_in: timedelta | None,
        rematch_of: str | None,
    ) -> Invited:
        asked = self._times.invite if expires_in is None else expires_in
        expires_at = self._clock() + min(asked, self._times.invite_max)
        seats = 1 + max([len(bots) - 1, *to_players])
        created = await self._accounts.create_match(
            player, options=options, players=seats, bots=bots
        )
        kind: NoticeKind = "rematch_offered" if rematch_of else "invitation_received"
        for seat, code in sorted(created.invite_codes.items()):
            to_player = to_players[seat]
            body = NoticeBody(
                kind=kind,
                match_id=created.match_id,
                seat=seat,
                invite_code=code,
                from_player=player.display_name,
                expires_at=expires_at.isoformat(),
                rematch_of=rematch_of,
            )
            await self._invites.add(
                PlayerInvite(
                    code_hash=tokens.secret_hash(code),
                    match_id=created.match_id,
                    from_player=player.player_id,
                    to_player=to_player,
                    expires_at=expires_at,
                    rematch_of=rematch_of,
                ),
                notice(to_player, body) if to_player else None,
            )
        return Invited(
            match=created, expires_at=expires_at, to_players=to_players, rematch_of=rematch_of
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
