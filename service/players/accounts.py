"""Player accounts and what a player does with one: sign up, rotate the credential, create and
join matches, list their matches, read their inbox.

A credential is a random secret shown once, kept as its SHA-256 hash like a seat token. A
player's seat still gets a seat token of its own (so everything that takes a seat token keeps
working), made here and linked to the player before the match is created or joined: a seat is
never the player's without the link. A request for a match then opens the player's seat with
the credential (``seat_for_credential``, handed to ``MatchService``).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Awaitable, Callable, Sequence

import msgspec
from cachetools import LRUCache

from domain import RuleOptions
from service.errors import MissingCredential, WrongCredential
from service.matches import tokens
from service.matches.use_cases import CreatedMatch, MatchService, SeatToken
from service.players.names import display_name
from service.ports.match_registry import RegisteredMatch
from service.ports.players import Notice, Player, PlayerMatch, PlayerStore

CREDENTIAL_PREFIX = "gpc_"
ACCESS_PREFIX = "gpa_"  # a session's access token (service/accounts/sessions.py)
PAGE_LIMIT = 100
NAMES_KEPT = 10_000  # full matches whose seats' names a process keeps at hand


NOT_A_PLAYERS = "this credential is not a player's (or was replaced)"


class SignedUp(msgspec.Struct, frozen=True):
    player: Player
    credential: str  # shown once


def new_credential() -> str:
    return CREDENTIAL_PREFIX + secrets.token_urlsafe(32)


class Accounts:
    def __init__(self, players: PlayerStore, matches: MatchService) -> None:
        self.players = players
        self.matches = matches
        self._names: LRUCache[str, dict[int, str]] = LRUCache(NAMES_KEPT)
        # The player of a session's access token, set where sessions are wired: everything a
        # credential opens, an access token opens too.
        self.access_holder: Callable[[str], Awaitable[Player]] | None = None

    async def seat_names(self, match: RegisteredMatch) -> dict[int, str]:
        """The display names of the match's seats that players hold, by seat. A seat is linked
        to its player before it is taken and a name never changes, so once the match is full
        its names are final: kept here, so views and commands need no query for them."""
        kept = self._names.get(match.match_id)
        if kept is not None:
            return kept
        names = await self.players.names(match.match_id)
        if match.full:
            self._names[match.match_id] = names
        return names

    async def sign_up(self, name: str) -> SignedUp:
        valid = display_name(name)
        credential = new_credential()
        player = await self.players.create(str(uuid.uuid4()), valid, tokens.secret_hash(credential))
        return SignedUp(player, credential)

    async def authenticate(self, credential: str | None) -> Player:
        if credential is not None and self._is_access(credential):
            assert self.access_holder is not None
            return await self.access_holder(credential)
        hashed = _credential_hash(credential)
        player = None if hashed is None else await self.players.by_credential(hashed)
        if player is None:
            raise WrongCredential(NOT_A_PLAYERS)
        return player

    def _is_access(self, bearer: str) -> bool:
        return self.access_holder is not None and bearer.startswith(ACCESS_PREFIX)

    async def rotate(self, credential: str | None) -> SignedUp:
        """A new credential for the player of ``credential``, which stops working."""
        player = await self.authenticate(credential)
        assert credential is not None
        if self._is_access(credential):
            raise WrongCredential("a credential is replaced with the credential itself")
        fresh = new_credential()
        if not await self.players.rotate(
            player.player_id, tokens.secret_hash(credential), tokens.secret_hash(fresh)
        ):
            raise WrongCredential("this credential was replaced meanwhile")
        return SignedUp(player, fresh)

    async def seat_for_credential(self, credential: str, match_id: str) -> int | None:
        """The seat the player of ``credential`` (or of a session's access token) holds in the
        match, if any."""
        if self._is_access(credential):
            signed_in = await self.authenticate(credential)
            return await self.players.seat_of(signed_in.player_id, match_id)
        if not credential.startswith(CREDENTIAL_PREFIX):
            return None
        player = await self.players.by_credential(tokens.secret_hash(credential))
        if player is None:
            return None
        return await self.players.seat_of(player.player_id, match_id)

    async def seat_token(self, player_id: str) -> str:
        """A fresh seat token, linked to the player before any seat holds it."""
        token = tokens.new_token()
        await self.players.link_token(player_id, tokens.secret_hash(token))
        return token

    async def create_match(
        self,
        player: Player,
        *,
        options: RuleOptions,
        players: int = 2,
        bots: Sequence[str | None] = (),
    ) -> CreatedMatch:
        """A match of ``players`` seats with the player in seat 0 and, in every other seat,
        the bot ``bots`` names for it or an invited player."""
        levels = [*bots, *[None] * players][:players]
        return await self.matches.create_match(
            players=players,
            options=options,
            invite_seats=[seat for seat in range(1, players) if levels[seat] is None],
            bots=levels if any(levels) else (),
            seat_tokens={0: await self.seat_token(player.player_id)},
        )

    async def join(self, player: Player, invite_code: str) -> SeatToken:
        return await self.matches.join(invite_code, token=await self.seat_token(player.player_id))

    async def my_matches(
        self, credential: str | None, *, before: int | None, limit: int
    ) -> list[PlayerMatch]:
        """The matches of the player of ``credential``: the sign-in and the page are one read."""
        if credential is not None and self._is_access(credential):
            player = await self.authenticate(credential)
            return await self.players.matches_of(
                player.player_id, before=before, limit=min(limit, PAGE_LIMIT)
            )
        hashed = _credential_hash(credential)
        rows = None
        if hashed is not None:
            rows = await self.players.matches(hashed, before=before, limit=min(limit, PAGE_LIMIT))
        if rows is None:
            raise WrongCredential(NOT_A_PLAYERS)
        return rows

    async def inbox(self, player: Player, *, after: int, limit: int = PAGE_LIMIT) -> list[Notice]:
        return await self.players.notices(player.player_id, after=after, limit=limit)


def _credential_hash(credential: str | None) -> bytes | None:
    """The hash a player's credential is kept as; None if it cannot be one."""
    if credential is None:
        raise MissingCredential(
            "send the player's credential as 'Authorization: Bearer <credential>'"
        )
    return tokens.secret_hash(credential) if credential.startswith(CREDENTIAL_PREFIX) else None
