"""Identities in a Python process. No method awaits, so two removals at once on one event
loop never leave a player with none."""

from __future__ import annotations

from adapters.memory.clock import Clock, utc_now
from service.ports.identities import (
    DuplicateIdentity,
    Identity,
    IdentityKind,
    Removal,
)


class InMemoryIdentities:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._identities: dict[tuple[str, str, str], Identity] = {}

    async def find(self, kind: IdentityKind, issuer: str, subject: str) -> Identity | None:
        return self._identities.get((kind, issuer, subject))

    async def add(self, identity: Identity) -> Identity:
        key = (identity.kind, identity.issuer, identity.subject)
        if key in self._identities or any(
            kept.identity_id == identity.identity_id for kept in self._identities.values()
        ):
            raise DuplicateIdentity(identity.kind)
        kept = Identity(
            identity_id=identity.identity_id,
            player_id=identity.player_id,
            kind=identity.kind,
            issuer=identity.issuer,
            subject=identity.subject,
            secret_hash=identity.secret_hash,
            created_at=self._clock(),
        )
        self._identities[key] = kept
        return kept

    async def of_player(self, player_id: str) -> list[Identity]:
        return [kept for kept in self._identities.values() if kept.player_id == player_id]

    async def remove(self, player_id: str, identity_id: str) -> Removal:
        mine = [kept for kept in self._identities.values() if kept.player_id == player_id]
        chosen = next((kept for kept in mine if kept.identity_id == identity_id), None)
        if chosen is None:
            return "unknown"
        if len(mine) == 1:
            return "last"
        del self._identities[(chosen.kind, chosen.issuer, chosen.subject)]
        return "removed"
