"""The match registry port: what the service keeps about a match outside its event stream.

That is the server secret, the seats' token hashes and entropy, and open invites. None of this
is game state; it never reaches a seat except as a seat's own fresh token. Tokens and invite
codes are kept only as SHA-256 hashes.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
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
    round_id: str | None = None  # the round it was created in, if any
    # Its round's start: no move is taken, and no clock runs, before it.
    clocks_start_at: datetime | None = None

    @property
    def full(self) -> bool:
        return not self.empty_seats

    @property
    def empty_seats(self) -> list[int]:
        """The invited seats nobody has taken yet, lowest first."""
        return [seat.seat for seat in self.seats if seat.token_hash is None and seat.bot is None]

    @property
    def entropy(self) -> list[str]:
        return [seat.entropy for seat in self.seats]


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    """One match of a round, as ``MatchRegistry.create`` takes it (a round has no invites)."""

    match_id: str
    external_ref: str | None
    server_secret: bytes
    seats: tuple[RegisteredSeat, ...]


class NewRound(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    operator_id: str
    start_at: datetime | None  # when the clocks of its matches start, if the operator said
    matches: tuple[Registration, ...]


class RoundInfo(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    operator_id: str
    start_at: datetime | None
    created_at: datetime
    match_ids: tuple[str, ...]  # in the order the round was created with


class MatchQuery(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's matches in creation order (then by id), after the cursor ``after``."""

    external_ref_prefix: str | None = None
    created_from: datetime | None = None  # inclusive
    created_before: datetime | None = None  # exclusive
    round_id: str | None = None  # only the matches of this round
    external_player_id: str | None = None  # only the matches with a seat of this player
    after: tuple[datetime, str] | None = None  # (created_at, match_id) of the last one seen
    limit: int = 100


class RoundQuery(msgspec.Struct, frozen=True, kw_only=True):
    """An operator's rounds in creation order (then by id), after the cursor ``after``."""

    created_from: datetime | None = None  # inclusive
    created_before: datetime | None = None  # exclusive
    after: tuple[datetime, str] | None = None  # (created_at, round_id) of the last one seen
    limit: int = 100


class Owner(msgspec.Struct, frozen=True):
    operator_id: str | None
    external_ref: str | None
    round_id: str | None = None


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
        if ``invite_code_hash`` is given. The registry dates it by its own clock. An external
        ref the operator already uses raises ``service.errors.ExternalRefTaken``."""
        ...

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        """Open one more invite to ``seat`` of a registered match (a match of three or four
        players may invite several seats, each with its own code)."""
        ...

    async def get(self, match_id: str) -> RegisteredMatch | None:
        """The match with its seats in seat order, or None if there is no such match."""
        ...

    async def create_round(self, round: NewRound) -> None:
        """Register a round and all its matches at once, or nothing: an external ref the
        operator already uses (or uses twice here) raises ``ExternalRefTaken``."""
        ...

    async def round(self, round_id: str) -> RoundInfo | None: ...

    async def set_round_start(self, round_id: str, start_at: datetime) -> None:
        """The round's new start, as its matches' rows read it from then on."""
        ...

    async def operator_rounds(self, operator_id: str, query: RoundQuery) -> list[RoundInfo]:
        """At most ``query.limit`` of the operator's rounds, ordered by (created_at, id)."""
        ...

    async def by_external_ref(
        self, operator_id: str, external_ref: str
    ) -> RegisteredMatch | None: ...

    async def operator_matches(self, operator_id: str, query: MatchQuery) -> list[RegisteredMatch]:
        """At most ``query.limit`` of the operator's matches, ordered by (created_at, id)."""
        ...

    async def owners(self, match_ids: Collection[str]) -> dict[str, Owner]:
        """Who created each of these matches, and its external ref (unknown ids are left out)."""
        ...

    async def invited_match(self, code_hash: bytes) -> str | None:
        """The match an open invite with this code hash is for; None if no open invite has
        it. Reads only: a join looks first, so an invite to an ended match stays open."""
        ...

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        """Seat the invited player with this token hash and entropy, once: None if no open
        invite has this code hash (never was, or already accepted, even at the same time)."""
        ...

    async def replace_seat_tokens(self, match_id: str, token_hashes: dict[int, bytes]) -> None:
        """Give these seats new token hashes. Only for a round whose first answer, the one
        holding the old tokens, was never sent (its request died after registering it)."""
        ...

    async def is_seat_token(self, token_hash: bytes) -> bool:
        """Whether any seat of any match holds this token hash."""
        ...

    async def matches_with_bots(self) -> set[str]:
        """The id of every match with at least one bot seat, finished or not (whether one is
        finished is its event stream's business, not the registry's)."""
        ...
