"""The sessions port: one signed-in device each, its access token and its rotating refresh
token, kept only as SHA-256 hashes.

A session is a family: every refresh trades the current refresh token for a new pair, and the
traded token is remembered as spent. A spent token coming back means two clients hold the same
family (one of them stole it), so the whole family is revoked, as the OAuth 2.0 Security Best
Current Practice advises: the thief and the real client both sign in again.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, Protocol

import msgspec

from service.ports.players import Player

RefreshRefusal = Literal["unknown", "expired", "revoked", "reused"]


class NewSession(msgspec.Struct, frozen=True, kw_only=True):
    session_id: str
    player_id: str
    access_hash: bytes
    access_lifetime: timedelta
    refresh_hash: bytes
    refresh_lifetime: timedelta
    signed_in_with: str  # "credential", "oidc" or "device": shown in the list of sessions


class Rotation(msgspec.Struct, frozen=True, kw_only=True):
    """What a refresh replaces the session's tokens with."""

    access_hash: bytes
    access_lifetime: timedelta
    refresh_hash: bytes
    refresh_lifetime: timedelta


class Holder(msgspec.Struct, frozen=True):
    """The player and session an access token belongs to; ``expired`` if it no longer opens
    anything (its session still stands, a refresh gives a new one)."""

    player: Player
    session_id: str
    expired: bool


class Refreshed(msgspec.Struct, frozen=True):
    session_id: str
    player_id: str


class SessionInfo(msgspec.Struct, frozen=True, kw_only=True):
    session_id: str
    signed_in_with: str
    created_at: datetime
    refreshed_at: datetime | None


class SessionStore(Protocol):
    async def start(self, session: NewSession) -> None: ...

    async def holder(self, access_hash: bytes) -> Holder | None:
        """Whose access token this is, None if it is no live session's current one (unknown,
        replaced by a refresh, or its session revoked)."""
        ...

    async def refresh(self, refresh_hash: bytes, rotation: Rotation) -> Refreshed | RefreshRefusal:
        """Trade the session's current refresh token for ``rotation``, all at once: the traded
        one is spent. A spent one revokes its family and is ``"reused"``; a revoked family's
        current one is ``"revoked"``, an outlived one ``"expired"``."""
        ...

    async def revoke(self, player_id: str, session_id: str) -> bool:
        """End one of the player's sessions: whether it was live."""
        ...

    async def revoke_all(self, player_id: str) -> int:
        """End every live session of the player: how many."""
        ...

    async def live(self, player_id: str) -> list[SessionInfo]:
        """The player's sessions that still stand, oldest first."""
        ...
