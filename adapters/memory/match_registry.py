"""A match registry in a Python process, for tests and quick experiments.

No method awaits between reading and writing, so on one event loop each call is atomic: two
players accepting the same invite at once get the seat once.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from adapters.memory.clock import Clock, utc_now
from service.ports.match_registry import (
    AcceptedInvite,
    RegisteredMatch,
    RegisteredSeat,
)


class _Invite(msgspec.Struct):
    match_id: str
    seat: int
    accepted: bool = False


class InMemoryMatchRegistry:
    def __init__(self, clock: Clock = utc_now) -> None:
        self._clock = clock
        self._matches: dict[str, RegisteredMatch] = {}
        self._invites: dict[bytes, _Invite] = {}
        self._token_hashes: set[bytes] = set()

    async def create(
        self,
        match_id: str,
        *,
        external_ref: str | None,
        server_secret: bytes,
        seats: Sequence[RegisteredSeat],
        invite_code_hash: bytes | None = None,
        invite_seat: int | None = None,
        operator_id: str | None = None,
    ) -> None:
        if match_id in self._matches:
            raise ValueError(f"match {match_id} is already registered")
        if invite_code_hash is not None and invite_seat is not None:
            self._invites[invite_code_hash] = _Invite(match_id, invite_seat)
        self._matches[match_id] = RegisteredMatch(
            match_id=match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            created_at=self._clock(),
            seats=tuple(sorted(seats, key=lambda seat: seat.seat)),
            operator_id=operator_id,
        )
        self._token_hashes.update(s.token_hash for s in seats if s.token_hash is not None)

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        self._invites[code_hash] = _Invite(match_id, seat)

    async def get(self, match_id: str) -> RegisteredMatch | None:
        return self._matches.get(match_id)

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        invite = self._invites.get(code_hash)
        if invite is None or invite.accepted:
            return None
        invite.accepted = True
        match = self._matches[invite.match_id]
        seats = tuple(
            msgspec.structs.replace(seat, token_hash=token_hash, entropy=entropy)
            if seat.seat == invite.seat
            else seat
            for seat in match.seats
        )
        self._matches[invite.match_id] = msgspec.structs.replace(match, seats=seats)
        self._token_hashes.add(token_hash)
        return AcceptedInvite(invite.match_id, invite.seat)

    async def matches_with_bots(self) -> set[str]:
        return {
            match_id
            for match_id, match in self._matches.items()
            if any(seat.bot is not None for seat in match.seats)
        }

    async def is_seat_token(self, token_hash: bytes) -> bool:
        return token_hash in self._token_hashes
