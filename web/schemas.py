"""Request and response bodies of the HTTP API (cards always in notation, e.g. "7h")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain import Event, GameWon, HandDrawn, RuleOptions, Scored, SeatView, TableView
from domain.tables import (
    FormatEvent,
    FormatGameWon,
    FormatSeatView,
    FormatTableView,
    RoundScored,
    TableEvent,
)
from service.fairness.events import FairnessView

AnySeat = Annotated[int, Meta(ge=0, le=3, description="0 to 3")]
Entropy = Annotated[str, Meta(max_length=256)]
# PostgreSQL text cannot hold NUL: refused as input, not left to fail in the database.
NO_NUL = "^[^\\x00]*$"
ExternalId = Annotated[str, Meta(min_length=1, max_length=200, pattern=NO_NUL)]
BotLevel = Literal["easy", "medium", "hard", "random", "simple", "strong"]
CommitmentHex = Annotated[str, Meta(pattern="^[0-9a-f]{64}$", description="From POST /commitments")]


class CreateMatch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A new match. Leave ``invite`` false to get every seat's token (a tournament system, a
    table with two apps); set it to get your own ``seat``'s token and an invite code for each
    other seat to pass on (or name the invited seats in ``invite_seats``).

    ``external_ref`` (the tournament's id for the match) and ``external_player_ids`` (by seat,
    one per seat at most) are tournament ids: they need an operator key with the scope
    ``matches:create``.

    ``entropy`` (by seat) goes into every shuffle of the match; it needs a ``commitment`` from
    ``POST /commitments``, so the server's seeds are fixed before it sees the entropy.

    ``bots`` (by seat) has the server play a seat at a level, e.g. ``[null, "hard"]``: that
    seat gets no token, and the person's answers already hold the bot's replies. At least one
    seat is a person's, and an invited seat is never a bot.

    ``players`` 3 (round robin) or 4 (partnerships, seats 0 and 2 against 1 and 3) makes a
    match of that many seats (see docs/rules.md): every seat not a bot and not invited gets a
    token, and each invited seat an invite code of its own (``invites``; ``invite_code`` is
    the first of them)."""

    options: RuleOptions = msgspec.field(default_factory=RuleOptions)
    external_ref: Annotated[str, Meta(max_length=200, pattern=NO_NUL)] | None = None
    external_player_ids: Annotated[list[ExternalId | None], Meta(max_length=4)] = msgspec.field(
        default_factory=list
    )
    entropy: Annotated[list[Entropy], Meta(max_length=4)] = msgspec.field(default_factory=list)
    commitment: CommitmentHex | None = None
    invite: bool = False
    seat: AnySeat = 0
    bots: Annotated[list[BotLevel | None], Meta(max_length=4)] = msgspec.field(default_factory=list)
    players: Literal[2, 3, 4] = 2
    invite_seats: Annotated[list[AnySeat], Meta(max_length=3)] = msgspec.field(default_factory=list)


class SeatToken(msgspec.Struct, frozen=True):
    seat: int
    token: str


class NewMatch(msgspec.Struct, frozen=True, kw_only=True):
    """``commitment`` is the hash chain end every shuffle of the match is committed to."""

    match_id: str
    seats: list[SeatToken]
    commitment: str
    invite_code: str | None = None
    invites: list[SeatInvite] = msgspec.field(default_factory=list)  # by invited seat


class SeatInvite(msgspec.Struct, frozen=True):
    seat: int
    invite_code: str


class JoinMatch(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    invite_code: Annotated[str, Meta(min_length=1, max_length=100)]
    entropy: Entropy = ""


class Joined(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    seat: int
    token: str


# ``kind`` tells a two-player match's view, summary and replay from a three- or four-player
# match's, which the same endpoints answer with: a client's discriminator.
TWO_PLAYERS = "two_players"
THREE_OR_FOUR_PLAYERS = "three_or_four_players"


class MatchView(SeatView, frozen=True, kw_only=True, tag_field="kind", tag=TWO_PLAYERS):
    """One seat's view of the match at ``version``; ``legal_actions`` are ready-to-send
    command bodies for ``POST /matches/{match_id}/commands``. ``display_names``: each seat's
    player's display name, by seat, null for a seat no player account holds."""

    match_id: str
    version: int
    fairness: FairnessView
    display_names: list[str | None] = msgspec.field(default_factory=list)


class EventEnvelope(msgspec.Struct, frozen=True):
    """``event`` is a two-player match's event, or a three- or four-player match's."""

    version: int
    event: Event | FormatEvent


class EventFeed(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    events: list[EventEnvelope]


Status = Literal["waiting_for_opponent", "in_progress", "finished"]


class Player(msgspec.Struct, frozen=True):
    seat: int
    joined: bool
    external_player_id: str | None = None
    bot: str | None = None  # the level of a seat the server plays
    display_name: str | None = None  # the name of the player account holding the seat


class MatchSummary(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag=TWO_PLAYERS):
    """What anybody may know about a match: for spectators and tournament software."""

    match_id: str
    external_ref: str | None
    created_at: datetime
    status: Status
    version: int
    players: list[Player]
    winner: int | None
    table: TableView
    hands: list[Scored | HandDrawn]
    games: list[GameWon]


class Health(msgspec.Struct, frozen=True):
    status: Literal["ok", "unavailable"]
    database: Literal["ok", "unreachable"]


class Liveness(msgspec.Struct, frozen=True):
    status: Literal["ok"] = "ok"


class Readiness(msgspec.Struct, frozen=True):
    status: Literal["ok", "unavailable"]
    database: Literal["ok", "unreachable"]
    migrations: Literal["done", "pending"] | None  # null: the database could not be asked


# Versions fit PostgreSQL's bigint with room to spare; larger numbers are refused as input.
MAX_VERSION = 10**18 - 1


class FormatMatchView(
    FormatSeatView, frozen=True, kw_only=True, tag_field="kind", tag=THREE_OR_FOUR_PLAYERS
):
    """One seat's view of a three- or four-player match at ``version``; ``legal_actions`` are
    ready-to-send command bodies for ``POST /matches/{match_id}/commands``; ``fairness`` the
    match's seed commitments and the seeds revealed so far (a deal's once its hand and every
    hand dealt before it are over). ``display_names``: each seat's player's name, by seat
    (None where no player account holds the seat)."""

    match_id: str
    version: int
    fairness: FairnessView
    display_names: list[str | None] = msgspec.field(default_factory=list)


# What a seat's view answers with, for a match of any number of players: one type for Litestar
# to document (a union of two Response types would leave both views out of the document).
AnyMatchView = MatchView | FormatMatchView


class FormatMatchSummary(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag=THREE_OR_FOUR_PLAYERS
):
    """What anybody may know about a three- or four-player match. ``hands`` are the ends of
    every table's hands, each with the table and its match seats; ``rounds`` and ``games``
    their scores."""

    match_id: str
    external_ref: str | None
    created_at: datetime
    status: Status
    version: int
    players: list[Player]
    winner: int | None
    table: FormatTableView
    hands: list[TableEvent]
    rounds: list[RoundScored]
    games: list[FormatGameWon]
