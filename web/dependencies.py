"""What the controllers get injected: the use cases, and the seat a request speaks for."""

from __future__ import annotations

from typing import cast

from litestar.datastructures import State

from service.bots.runner import BotRunner
from service.matches.play import MatchPlays
from service.matches.tokens import bearer_token
from service.matches.use_cases import MatchService, Seated
from service.ports.wakeups import Wakeups


def provide_matches(state: State) -> MatchService:
    return cast(MatchService, state.matches)


async def seated(matches: MatchService, match_id: str, authorization: str | None) -> Seated:
    """The seat the request's bearer token opens in this match (401/403 otherwise), with the
    match's registry row: the request's only read of it."""
    return await matches.authenticate(match_id, bearer_token(authorization))


async def seat_of(matches: MatchService, match_id: str, authorization: str | None) -> int:
    """As ``seated``, for a request that needs only the seat."""
    return (await seated(matches, match_id, authorization)).seat


async def optional_seat_of(
    matches: MatchService, match_id: str, authorization: str | None
) -> int | None:
    """As ``seat_of``, but no token at all means a spectator (None)."""
    if authorization is None:
        await matches.match(match_id)
        return None
    return await seat_of(matches, match_id, authorization)


def provide_wakeups(state: State) -> Wakeups:
    return cast(Wakeups, state.wakeups)


def provide_bots(state: State) -> BotRunner:
    return cast(BotRunner, state.bots)


def provide_plays(state: State) -> MatchPlays:
    return cast(MatchPlays, state.plays)
