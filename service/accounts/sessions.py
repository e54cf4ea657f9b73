"""Sessions: what a device holds once a player signed in on it.

An access token (``gpa_``) opens everything a player's credential opens, for a short while; a
refresh token (``gpr_``) trades itself for a fresh pair, once. Both are random secrets the
store keeps only as SHA-256 hashes, as seat tokens and credentials are. An access token is
found with its player in one read, as a credential is, so a request costs the same either way.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Literal

import msgspec

from service.accounts.settings import AccountSettings
from service.errors import (
    AccessTokenExpired,
    RefreshTokenExpired,
    RefreshTokenReused,
    RefreshTokenUnknown,
    SessionNotFound,
    SessionRevoked,
    WrongCredential,
)
from service.matches.tokens import secret_hash
from service.ports.players import Player
from service.ports.sessions import (
    Holder,
    NewSession,
    Refreshed,
    Rotation,
    SessionInfo,
    SessionStore,
)

ACCESS_PREFIX = "gpa_"
REFRESH_PREFIX = "gpr_"
SignedInWith = Literal["credential", "oidc", "device"]


class SessionTokens(msgspec.Struct, frozen=True, kw_only=True):
    """Shown once: the store keeps only their hashes."""

    session_id: str
    player_id: str
    access_token: str
    expires_in: int
    refresh_token: str
    refresh_expires_in: int


class Signed(msgspec.Struct, frozen=True):
    """Who an access token is, and which of their sessions it belongs to."""

    player: Player
    session_id: str


def _pair() -> tuple[str, str]:
    return ACCESS_PREFIX + secrets.token_urlsafe(32), REFRESH_PREFIX + secrets.token_urlsafe(32)


def is_access_token(bearer: str) -> bool:
    return bearer.startswith(ACCESS_PREFIX)


class Sessions:
    def __init__(self, store: SessionStore, settings: AccountSettings) -> None:
        self.store = store
        self.settings = settings

    def _tokens(self, session_id: str, player_id: str, access: str, refresh: str) -> SessionTokens:
        return SessionTokens(
            session_id=session_id,
            player_id=player_id,
            access_token=access,
            expires_in=self.settings.access_seconds,
            refresh_token=refresh,
            refresh_expires_in=self.settings.refresh_seconds,
        )

    async def start(self, player_id: str, signed_in_with: SignedInWith) -> SessionTokens:
        access, refresh = _pair()
        session_id = str(uuid.uuid4())
        await self.store.start(
            NewSession(
                session_id=session_id,
                player_id=player_id,
                access_hash=secret_hash(access),
                access_lifetime=self.settings.access_lifetime,
                refresh_hash=secret_hash(refresh),
                refresh_lifetime=self.settings.refresh_lifetime,
                signed_in_with=signed_in_with,
            )
        )
        return self._tokens(session_id, player_id, access, refresh)

    async def refresh(self, refresh_token: str) -> SessionTokens:
        """A new pair for the session of ``refresh_token``, which is spent: sent again, it
        revokes the session."""
        if not refresh_token.startswith(REFRESH_PREFIX):
            raise RefreshTokenUnknown("this is not a refresh token of this service")
        access, refresh = _pair()
        outcome = await self.store.refresh(
            secret_hash(refresh_token),
            Rotation(
                access_hash=secret_hash(access),
                access_lifetime=self.settings.access_lifetime,
                refresh_hash=secret_hash(refresh),
                refresh_lifetime=self.settings.refresh_lifetime,
            ),
        )
        if isinstance(outcome, Refreshed):
            return self._tokens(outcome.session_id, outcome.player_id, access, refresh)
        if outcome == "reused":
            raise RefreshTokenReused(
                "a refresh token works once; its session is now signed out on every device"
                " that held it"
            )
        if outcome == "revoked":
            raise SessionRevoked("the session of this refresh token was signed out")
        if outcome == "expired":
            raise RefreshTokenExpired("this refresh token has expired")
        raise RefreshTokenUnknown("this refresh token is unknown")

    async def holder(self, access_token: str) -> Signed:
        """The player and session of a live access token."""
        found: Holder | None = None
        if is_access_token(access_token):
            found = await self.store.holder(secret_hash(access_token))
        if found is None:
            raise WrongCredential(
                "this access token is unknown, was replaced by a refresh, or its session"
                " was signed out"
            )
        if found.expired:
            raise AccessTokenExpired("refresh the session for a new access token")
        return Signed(found.player, found.session_id)

    async def player_of(self, access_token: str) -> Player:
        return (await self.holder(access_token)).player

    async def sign_out(self, player_id: str, session_id: str) -> None:
        if not await self.store.revoke(player_id, session_id):
            raise SessionNotFound("this player has no live session with this id")

    async def sign_out_everywhere(self, player_id: str) -> int:
        return await self.store.revoke_all(player_id)

    async def live(self, player_id: str) -> list[SessionInfo]:
        return await self.store.live(player_id)
