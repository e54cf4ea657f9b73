"""Sessions in a Python process, aged by a clock the caller may pass.

No method awaits between reading and writing a session, so on one event loop a refresh token
is traded once even by refreshes at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from adapters.memory.clock import Clock, utc_now
from service.ports.players import PlayerStore
from service.ports.sessions import (
    Holder,
    NewSession,
    Refreshed,
    RefreshRefusal,
    Rotation,
    SessionInfo,
)


@dataclass
class _Session:
    session_id: str
    player_id: str
    access_hash: bytes
    access_expires_at: datetime
    refresh_hash: bytes
    refresh_expires_at: datetime
    signed_in_with: str
    created_at: datetime
    refreshed_at: datetime | None = None
    revoked_at: datetime | None = None


class InMemorySessions:
    def __init__(self, players: PlayerStore, clock: Clock = utc_now) -> None:
        self._players = players
        self._clock = clock
        self._sessions: dict[str, _Session] = {}
        self._by_access: dict[bytes, str] = {}
        self._by_refresh: dict[bytes, str] = {}
        self._spent: dict[bytes, str] = {}

    async def start(self, session: NewSession) -> None:
        now = self._clock()
        if session.access_hash in self._by_access or session.refresh_hash in self._by_refresh:
            raise ValueError("a token hash is already some session's")
        self._sessions[session.session_id] = _Session(
            session_id=session.session_id,
            player_id=session.player_id,
            access_hash=session.access_hash,
            access_expires_at=now + session.access_lifetime,
            refresh_hash=session.refresh_hash,
            refresh_expires_at=now + session.refresh_lifetime,
            signed_in_with=session.signed_in_with,
            created_at=now,
        )
        self._by_access[session.access_hash] = session.session_id
        self._by_refresh[session.refresh_hash] = session.session_id

    async def holder(self, access_hash: bytes) -> Holder | None:
        session = self._sessions.get(self._by_access.get(access_hash, ""))
        if session is None or session.revoked_at is not None:
            return None
        expired = session.access_expires_at <= self._clock()
        player = await self._players.get(session.player_id)
        return None if player is None else Holder(player, session.session_id, expired)

    async def refresh(self, refresh_hash: bytes, rotation: Rotation) -> Refreshed | RefreshRefusal:
        now = self._clock()
        spent_by = self._spent.get(refresh_hash)
        if spent_by is not None:
            family = self._sessions[spent_by]
            if family.revoked_at is None:
                family.revoked_at = now
            return "reused"
        session = self._sessions.get(self._by_refresh.get(refresh_hash, ""))
        if session is None:
            return "unknown"
        if session.revoked_at is not None:
            return "revoked"
        if session.refresh_expires_at <= now:
            return "expired"
        del self._by_access[session.access_hash]
        del self._by_refresh[session.refresh_hash]
        self._spent[refresh_hash] = session.session_id
        session.access_hash = rotation.access_hash
        session.access_expires_at = now + rotation.access_lifetime
        session.refresh_hash = rotation.refresh_hash
        session.refresh_expires_at = now + rotation.refresh_lifetime
        session.refreshed_at = now
        self._by_access[rotation.access_hash] = session.session_id
        self._by_refresh[rotation.refresh_hash] = session.session_id
        return Refreshed(session.session_id, session.player_id)

    async def revoke(self, player_id: str, session_id: str) -> bool:
        session = self._sessions.get(session_id)
        if session is None or session.player_id != player_id or session.revoked_at is not None:
            return False
        session.revoked_at = self._clock()
        return True

    async def revoke_all(self, player_id: str) -> int:
        ended = 0
        for session_id, session in self._sessions.items():
            if session.player_id == player_id and await self.revoke(player_id, session_id):
                ended += 1
        return ended

    async def live(self, player_id: str) -> list[SessionInfo]:
        now = self._clock()
        return [
            SessionInfo(
                session_id=s.session_id,
                signed_in_with=s.signed_in_with,
                created_at=s.created_at,
                refreshed_at=s.refreshed_at,
            )
            for s in sorted(self._sessions.values(), key=lambda s: s.created_at)
            if s.player_id == player_id and s.revoked_at is None and s.refresh_expires_at > now
        ]
