"""Request and response bodies of ``/sessions`` and ``/players/me/identities``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

# Room for any provider's ID token, and no more.
IdToken = Annotated[str, Meta(min_length=1, max_length=16_384)]
DeviceId = Annotated[str, Meta(min_length=1, max_length=256)]
DeviceSecret = Annotated[str, Meta(min_length=32, max_length=256)]


class ProviderSignIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``display_name`` names a player made by this sign-in (the first with this identity)."""

    id_token: IdToken
    display_name: str | None = None


class DeviceSignIn(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """``device_secret``: made by the app with a secure random generator, kept in the
    platform's secure storage; the device id alone never signs in."""

    device_id: DeviceId
    device_secret: DeviceSecret
    display_name: str | None = None


class RefreshRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    refresh_token: Annotated[str, Meta(min_length=1, max_length=200)]


class LinkProvider(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id_token: IdToken


class LinkDevice(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    device_id: DeviceId
    device_secret: DeviceSecret


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """Both tokens are shown this once: the server keeps only their hashes. Send the access
    token as ``Authorization: Bearer`` wherever a player's credential goes; before it expires
    (``expires_in`` seconds), trade the refresh token for a new pair. ``new_player``: this
    sign-in made the player."""

    session_id: str
    player_id: str
    access_token: str
    token_type: Literal["Bearer"] = "Bearer"
    expires_in: int
    refresh_token: str
    refresh_expires_in: int
    new_player: bool = False


class LiveSession(msgspec.Struct, frozen=True, kw_only=True):
    session_id: str
    signed_in_with: str
    created_at: datetime
    refreshed_at: datetime | None
    current: bool


class LiveSessions(msgspec.Struct, frozen=True, kw_only=True):
    sessions: list[LiveSession]


class SignedOut(msgspec.Struct, frozen=True, kw_only=True):
    signed_out: int


class LinkedIdentity(msgspec.Struct, frozen=True, kw_only=True):
    """An OpenID Connect issuer and subject, or a device id (its secret is never shown)."""

    identity_id: str
    kind: Literal["oidc", "device"]
    issuer: str | None
    subject: str
    created_at: datetime | None


class LinkedIdentities(msgspec.Struct, frozen=True, kw_only=True):
    identities: list[LinkedIdentity]
