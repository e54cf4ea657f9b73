"""Three- and four-player matches over HTTP: the same endpoints as a two-player match, each
handing a match with more than two seats to the functions here."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import cast

import msgspec
from litestar import Response
from litestar.datastructures import State
from msgspec.structs import asdict

from domain.events import HandDrawn, Scored
from domain.formats import (
    FormatGameWon,
    FormatPhase,
    FormatSeatView,
    FormatState,
    FormatTableView,
    RoundScored,
    TableEvent,
    format_public_view,
    format_view,
)
from service.errors import InvalidParameter
from service.fairness.events import FairnessView
from service.matches.formats import CreatedFormatMatch, FormatMatchService
from service.ports.match_registry import RegisteredMatch
from service.store.match_streams import Loaded
from web.etags import view_etag
from web.schemas import THREE_OR_FOUR_PLAYERS, CreateMatch, MatchView, Player, Status


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


def provide_formats(state: State) -> FormatMatchService:
    return cast(FormatMatchService, state.formats)


def check_two_player_fields(data: CreateMatch) -> None:
    """A two-player match invites with ``invite`` and ``seat``, never ``invite_seats``."""
    if data.invite_seats:
        raise InvalidParameter('invite_seats are for three or four players: use "invite"')


async def create_format_match(
    formats: FormatMatchService, data: CreateMatch, operator_id: str | None
) -> CreatedFormatMatch:
    if data.entropy or data.commitment:
        raise InvalidParameter("entropy and commitment are for two-player matches")
    if data.invite:
        raise InvalidParameter("name the invited seats of this match in invite_seats")
    assert data.players in (3, 4)
    return await formats.create_match(
        players=data.players,
        options=data.options,
        invite_seats=data.invite_seats,
        bots=data.bots,
        external_ref=data.external_ref,
        operator_id=operator_id,
        external_player_ids=data.external_player_ids,
    )


def format_view_response(
    formats: FormatMatchService,
    match: RegisteredMatch,
    seat: int,
    loaded: Loaded[FormatState],
    names: Mapping[int, str],
) -> Response[AnyMatchView]:
    body = FormatMatchView(
        **asdict(format_view(loaded.state, seat)),
        match_id=match.match_id,
        version=loaded.version,
        fairness=formats.fairness_view(match, loaded.state),
        display_names=[names.get(s.seat) for s in match.seats],
    )
    response: Response[AnyMatchView] = Response(
        body, headers={"ETag": view_etag(loaded.version, seat)}
    )
    return response


async def format_summary(
    formats: FormatMatchService, record: RegisteredMatch, players: list[Player]
) -> FormatMatchSummary:
    """``players``: who sits where, with the seats' tournament ids and display names."""
    loaded = await formats.load(record)
    events = [event for _, event in await formats.events(record, None, after_version=0)]
    status: Status = "in_progress"
    if not record.full:
        status = "waiting_for_opponent"
    elif loaded.state.phase is FormatPhase.MATCH_OVER:
        status = "finished"
    return FormatMatchSummary(
        match_id=record.match_id,
        external_ref=record.external_ref,
        created_at=record.created_at,
        status=status,
        version=loaded.version,
        players=players,
        winner=loaded.state.winner,
        table=format_public_view(loaded.state),
        hands=[
            e
            for e in events
            if isinstance(e, TableEvent) and isinstance(e.event, Scored | HandDrawn)
        ],
        rounds=[e for e in events if isinstance(e, RoundScored)],
        games=[e for e in events if isinstance(e, FormatGameWon)],
    )
