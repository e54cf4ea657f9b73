"""Request and response bodies of ``/players``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain import RuleOptions
from web.schemas import BotLevel, SeatInvite, SeatToken


class SignUp(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # Checked by the service (service/players/names.py), which says what is wrong with it.
    display_name: str


class PlayerProfile(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    display_name: str
    created_at: datetime


class NewPlayer(msgspec.Struct, frozen=True, kw_only=True):
    """``credential`` is shown this once: the server keeps only its hash."""

    player_id: str
    display_name: str
    credential: str


class NewCredential(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    credential: str


class CreatePlayerMatch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """You take seat 0 of a match of ``players`` seats; every other seat is a bot at ``bot``'s
    level, or (without one) whoever joins with that seat's invite code in the answer."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    bot: BotLevel | None = None
    players: Literal[2, 3, 4] = 2


class NewPlayerMatch(msgspec.Struct, frozen=True, kw_only=True):
    """``seats`` holds your seat's token too: the credential opens the seat as well."""

    match_id: str
    seats: list[SeatToken]
    commitment: str
    invite_code: str | None = None  # the first invited seat's
    invites: list[SeatInvite] = msgspec.field(default_factory=list)  # by invited seat


class JoinAsPlayer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    invite_code: Annotated[str, Meta(min_length=1, max_length=100)]


class MyMatch(msgspec.Struct, frozen=True, kw_only=True):
    """``your_turn``: whether the match waits for you now. ``deadline``: when the player to
    move must have moved, for a match with a clock (null otherwise)."""

    match_id: str
    seat: int
    status: Literal["waiting", "in_progress", "finished"]
    turn: int | None
    your_turn: bool
    version: int
    deadline: datetime | None = None


class MyMatches(msgspec.Struct, frozen=True, kw_only=True):
    """Newest first; ``next`` is the ``before`` of the next page (null: no more)."""

    matches: list[MyMatch]
    next: int | None
