"""The requests and answers of the match use cases (``service.matches.use_cases``)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

import msgspec

from domain import RuleOptions
from domain.commands import SeatCommand
from service.ports.match_registry import RegisteredMatch

# The seat a player's credential holds in a match (None: none), for credentials that are not
# seat tokens: ``service.players`` provides it.
PlayerSeat = Callable[[str, str], Awaitable[int | None]]


class CreatedMatch(msgspec.Struct, frozen=True, omit_defaults=True):
    match_id: str
    tokens: dict[int, str]  # by seat: only the seats created with a token
    invite_code: str | None  # the first invited seat's
    commitment: str  # chain 1's commitment of the match's seeds (hex)
    invite_codes: dict[int, str] = msgspec.field(default_factory=dict)  # by invited seat


class RoundMatch(msgspec.Struct, frozen=True, kw_only=True):
    external_ref: str | None = None
    players: int = 2  # the seats of the match
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
    invite_codes: dict[int, str]  # by invited seat
    events: list[Any]


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
