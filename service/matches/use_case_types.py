"""The requests and answers of the match use cases (``service.matches.use_cases``)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import NamedTuple

import msgspec

from domain import Event, RuleOptions
from domain.commands import SeatCommand
from service.ports.match_registry import RegisteredMatch

# The seat a player's credential holds in a match (None: none), for credentials that are not
# seat tokens: ``service.players`` provides it.
PlayerSeat = Callable[[str, str], Awaitable[int | None]]


class CreatedMatch(msgspec.Struct, frozen=True):
    match_id: str
    tokens: dict[int, str]  # by seat: only the seats created with a token
    invite_code: str | None
    commitment: str  # chain 1's commitment of the match's seeds (hex)


class RoundMatch(msgspec.Struct, frozen=True, kw_only=True):
    external_ref: str | None = None
    players: int = 2  # the seats of the match: 3 or 4 are made by ``RoundTables``
    external_player_ids: Sequence[str | None] = ()
    bots: Sequence[str | None] = ()


class RoundRequest(msgspec.Struct, frozen=True, kw_only=True):
    round_id: str
    operator_id: str
    options: RuleOptions
    start_at: datetime | None
    matches: Sequence[RoundMatch]


class _NewMatch(NamedTuple):
    match: RegisteredMatch
    tokens: dict[int, str]
    invite_code: str | None
    events: list[Event]


class SeatToken(msgspec.Struct, frozen=True):
    match_id: str
    seat: int
    token: str


class Seated(msgspec.Struct, frozen=True):
    """The seat a request speaks for, and its match's registry row as read to authenticate it."""

    match: RegisteredMatch
    seat: int


class CommandRequest(msgspec.Struct, frozen=True):
    command: SeatCommand
    idempotency_key: str | None = None
    if_match: int | None = None  # the version the client saw, if it insists on it

    def fingerprint(self, seat: int) -> bytes:
        """What a retry under the same key must repeat: seat, command and If-Match."""
        return hashlib.sha256(msgspec.json.encode([seat, self.command, self.if_match])).digest()
