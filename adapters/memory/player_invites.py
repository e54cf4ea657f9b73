"""Player invites in a Python process, with the invited player's notice added alongside."""

from __future__ import annotations

from adapters.memory.players import InMemoryPlayers
from service.ports.player_invites import PlayerInvite
from service.ports.players import NewNotice


class InMemoryPlayerInvites:
    def __init__(self, players: InMemoryPlayers) -> None:
        self._players = players
        self._invites: dict[bytes, PlayerInvite] = {}

    async def add(self, invite: PlayerInvite, notice: NewNotice | None) -> None:
        if invite.code_hash in self._invites:
            raise KeyError("an invite with this code hash exists already")
        await self._players.add_notices([notice] if notice is not None else [])
        self._invites[invite.code_hash] = invite

    async def get(self, code_hash: bytes) -> PlayerInvite | None:
        return self._invites.get(code_hash)
