"""The match registry port: what the service keeps about a match outside its event stream.

That is the server secret, the seats' token hashes and entropy, and open invites. None of this
is game state; it never reaches a seat except as a seat's own fresh token. Tokens and invite
codes are kept only as SHA-256 hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

import msgspec


class RegisteredSeat(msgspec.Struct, frozen=True):
    seat: int
    token_hash: bytes | None
    entropy: str
    external_player_id: str | None = None  # what tournament software calls this player
    bot: str | None = None  # the level of a seat the server plays (it never has a token)


class RegisteredMatch(msgspec.Struct, frozen=True):
    match_id: str
    external_ref: str | None
    server_secret: bytes
    created_at: datetime
    seats: tuple[RegisteredSeat, ...]
    operator_id: str | None = None  # the operator whose key created the match, if any

    @property
    def full(self) -> bool:
        return all(seat.token_hash is not None or seat.bot is not None for seat in self.seats)

    @property
    def entropy(self) -> list[str]:
        return [seat.entropy for seat in self.seats]


class AcceptedInvite(NamedTuple):
    """The seat an invite gave its player."""

    match_id: str
    seat: int


class MatchRegistry(Protocol):
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
        """Register a new match (``match_id`` a UUID), with an open invite to ``invite_seat``
        if ``invite_code_hash`` is given. The registry dates it by its own clock."""
        ...

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        """Open one more invite to ``seat`` of a registered match (a match of three or four
        players may invite several seats, each with its own code)."""
        ...

    async def get(self, match_id: str) -> RegisteredMatch | None:
        """The match with its seats in seat order, or None if there is no such match."""
        ...

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        """Seat the invited player with this token hash and entropy, once: None if no open
        invite has this code hash (never was, or already accepted, even at the same time)."""
        ...

    async def is_seat_token(self, token_hash: bytes) -> bool:
        """Whether any seat of any match holds this token hash."""
        ...

    async def matches_with_bots(self) -> set[str]:
        """The id of every match with at least one bot seat, finished or not (whether one is
        finished is its event stream's business, not the registry's)."""
        ...
