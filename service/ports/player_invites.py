"""The player-invites port: invites a player made, to anyone holding the code or to one player,
each with an expiry and, for a rematch, the match it follows.

The code itself is the match's invite code (kept by the match registry); here it is kept, as
there, only as its SHA-256 hash. An invite to a player adds a notice to that player's inbox in
the same step, so the invite and its notice exist together or not at all.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

import msgspec

from service.ports.players import NewNotice


class PlayerInvite(msgspec.Struct, frozen=True, kw_only=True):
    code_hash: bytes
    match_id: str
    from_player: str
    to_player: str | None
    expires_at: datetime
    rematch_of: str | None = None


class PlayerInvites(Protocol):
    async def add(self, invite: PlayerInvite, notice: NewNotice | None) -> None:
        """Keep the invite, and add ``notice`` to its player's inbox with it."""
        ...

    async def get(self, code_hash: bytes) -> PlayerInvite | None: ...
