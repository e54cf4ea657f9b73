"""``/matches``: create a match, join one by invite, and its public summary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from litestar import Controller, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_201_CREATED

from domain.match_rules import Shape
from service.errors import InvalidParameter
from service.matches.idempotent import IdempotentCreations
from service.matches.use_cases import CreatedMatch
from service.ports.match_registry import RegisteredMatch
from web.docs import problems
from web.invites import InvitationsDependency
from web.operators import OperatorAuthorization, Operators, creating_operator
from web.params import Bots, IdempotencyKey, Matches, MatchId, Plays
from web.players import AccountsDependency
from web.schemas import (
    CreateMatch,
    FormatMatchSummary,
    Joined,
    JoinMatch,
    MatchSummary,
    NewMatch,
    Player,
    SeatInvite,
    SeatToken,
    Status,
)

Creations = NamedDependency[IdempotentCreations]
# The scope of Idempotency-Keys sent without an operator key.
ANONYMOUS = "anonymous"


def provide_creations(state: State) -> IdempotentCreations:
    return cast(IdempotentCreations, state.creations)


def players(record: RegisteredMatch, names: Mapping[int, str]) -> list[Player]:
    """Who sits where; ``names``: the display names of seats held by player accounts."""
    return [
        Player(
            seat.seat,
            seat.token_hash is not None or seat.bot is not None,
            external_player_id=seat.external_player_id,
            bot=seat.bot,
            display_name=names.get(seat.seat),
        )
        for seat in record.seats
    ]


class MatchesController(Controller):
    path = "/matches"
    tags = ("matches",)

    @post(
        "/",
        status_code=HTTP_201_CREATED,
        summary="Create a match",
        responses=problems(400, 401, 403, 409, 422),
    )
    async def create(
        self,
        data: JSONBody[CreateMatch],
        matches: Matches,
        bots: Bots,
        operator_keys: Operators,
        creations: Creations,
        authorization: OperatorAuthorization = None,
        idempotency_key: IdempotencyKey = None,
    ) -> NewMatch:
        """One secret bearer token per seat (or, with ``invite``, yours and an invite code).
        Keep the tokens: the server stores only their hashes and cannot show them again.
        Open to anyone; tournament ids need an operator key (see docs/tournament.md). With an
        ``Idempotency-Key``, a retry of the same body gets the same match and tokens back
        (for 24 hours); the key with another body is refused."""
        operator = await creating_operator(
            operator_keys,
            authorization,
            tournament_ids=data.external_ref is not None or bool(data.external_player_ids),
        )
        scope = operator.operator_id if operator else ANONYMOUS

        async def create() -> CreatedMatch:
            return await matches.create_match(
                players=data.players,
                options=data.options,
                external_ref=data.external_ref,
                entropy=data.entropy,
                invite_seats=invited_seats(data),
                commitment=data.commitment,
                bots=data.bots,
                operator_id=operator.operator_id if operator else None,
                external_player_ids=data.external_player_ids,
            )

        created = await creations.once(
            scope=scope,
            key=idempotency_key,
            request=["match", data],
            create=create,
            answer=CreatedMatch,
            upcast=unwrapped_creation,
        )
        if any(data.bots):
            await bots.resume(created.match_id)
        return NewMatch(
            match_id=created.match_id,
            seats=[SeatToken(seat, token) for seat, token in sorted(created.tokens.items())],
            invite_code=created.invite_code,
            commitment=created.commitment,
            invites=[SeatInvite(seat, code) for seat, code in sorted(created.invite_codes.items())],
        )

    @post(
        "/join",
        status_code=HTTP_201_CREATED,
        summary="Join a match with an invite code",
        responses=problems(400, 403, 404, 409, 410, 422),
    )
    async def join(
        self,
        data: JSONBody[JoinMatch],
        matches: Matches,
        plays: Plays,
        invitations: InvitationsDependency,
    ) -> Joined:
        # A player's invite may have expired, or be for one player only.
        await invitations.check(None, data.invite_code)
        seated = await matches.join(data.invite_code, data.entropy)
        record = await matches.match(seated.match_id)
        await plays.joined(record)
        return Joined(match_id=seated.match_id, seat=seated.seat, token=seated.token)

    @get(
        "/{match_id:uuid}",
        summary="A match's public summary",
        responses=problems(400, 404),
    )
    async def summary(
        self,
        match_id: MatchId,
        matches: Matches,
        plays: Plays,
        accounts: AccountsDependency,
    ) -> MatchSummary | FormatMatchSummary:
        """Players, status, scores and every finished hand and game: no token needed, and
        nothing a spectator may not see."""
        record = await matches.match(str(match_id))
        loaded = await matches.load(record)
        names = await accounts.players.names(str(match_id))
        rules = matches.rules_for(record)
        events = [event for _, event in await matches.events(record, None, after_version=0)]
        status: Status = "in_progress"
        if rules.over(loaded.state):
            status = "finished"  # a no-show ends a match nobody joined
        elif not record.full:
            status = "waiting_for_opponent"
        return SUMMARY_OF_SHAPE[rules.shape](
            match_id=record.match_id,
            external_ref=record.external_ref,
            created_at=record.created_at,
            status=status,
            version=loaded.version,
            players=players(record, names),
            winner=rules.winner(loaded.state),
            table=rules.public_view(loaded.state),
            **rules.finished(events),
        )


def invited_seats(data: CreateMatch) -> list[int]:
    """The seats left for invited players: those named in ``invite_seats``, or with ``invite``
    every seat but the creator's ``seat``."""
    if not data.invite:
        return list(data.invite_seats)
    if data.invite_seats:
        raise InvalidParameter('send "invite" (every other seat) or "invite_seats", not both')
    if data.seat >= data.players:
        raise InvalidParameter(f"seat is a seat of the match: 0 to {data.players - 1}")
    return [seat for seat in range(data.players) if seat != data.seat]


def unwrapped_creation(kept: Any) -> Any:
    """A creation's answer as kept under its Idempotency-Key. Until every table size was
    created by one path, a three- or four-seat match's answer was kept wrapped, as
    ``{"created": ..., "invite_codes": ...}``; a retry within its window still finds it."""
    return kept["created"] if isinstance(kept, dict) and "created" in kept else kept


SUMMARY_OF_SHAPE: dict[Shape, type[MatchSummary | FormatMatchSummary]] = {
    "two_players": MatchSummary,
    "three_or_four_players": FormatMatchSummary,
}
