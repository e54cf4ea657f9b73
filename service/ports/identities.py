"""The identities port: the ways into an account beside its credential.

An identity is an OpenID Connect issuer and subject (``kind`` "oidc"), or a device id with the
SHA-256 of the device's secret (``kind`` "device", ``issuer`` empty). One belongs to one
player; a player may have several, and is never left with none once they had one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Protocol

import msgspec

IdentityKind = Literal["oidc", "device"]
Removal = Literal["removed", "unknown", "last"]


class Identity(msgspec.Struct, frozen=True, kw_only=True):
    identity_id: str
    player_id: str
    kind: IdentityKind
    issuer: str
    subject: str
    secret_hash: bytes | None = None
    created_at: datetime | None = None


class DuplicateIdentity(Exception):  # noqa: N818  (named for what happened)
    """The (kind, issuer, subject) is already some player's."""


class IdentityStore(Protocol):
    async def find(self, kind: IdentityKind, issuer: str, subject: str) -> Identity | None: ...

    async def add(self, identity: Identity) -> Identity:
        """Keep it (``created_at`` set); raises ``DuplicateIdentity`` if it is taken."""
        ...

    async def of_player(self, player_id: str) -> list[Identity]:
        """The player's identities, oldest first."""
        ...

    async def remove(self, player_id: str, identity_id: str) -> Removal:
        """Forget one of the player's identities, unless it is their last: then ``"last"``,
        decided under a lock, so two removals at once never leave none."""
        ...
