"""A server process's use cases, without its HTTP face: each call opens a process of its own
(its own pool and caches) on the database, so tests can stop one and start another."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import msgspec

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from domain import MatchState, Phase, RuleOptions, view
from domain.commands import SeatCommand
from service.bots import bot_for
from service.matches.use_cases import CommandRequest, MatchService
from service.store.match_streams import Loaded, MatchStreams, stream_id

ONE_SHORT_GAME = RuleOptions(game_target=25, match_target=0)
# No hand scores more than 129 points (big gin over 98 deadwood) or takes fewer than two
# commands, so a game to 10,000 cannot end within the 150 commands a test might play.
LONG_GAME = RuleOptions(game_target=10_000, match_target=0)
PERSON = bot_for("simple")  # how the person plays: from the person's view, like any client


@asynccontextmanager
async def process(database_url: str) -> AsyncIterator[MatchService]:
    async with open_pool(database_url, min_size=1, max_size=5) as pool:
        yield MatchService(MatchStreams(PostgresEventStore(pool)), PostgresMatchRegistry(pool))


async def person_plays(
    matches: MatchService, match_id: str, seat: int, until: Callable[[MatchState], bool]
) -> Loaded:
    """The person's moves, while it is the person's turn and ``until`` does not hold."""
    match = await matches.match(match_id)
    loaded = await matches.load(match)
    while loaded.state.turn == seat and not until(loaded.state):
        command = PERSON.choose(view(loaded.state, seat))
        assert isinstance(command, SeatCommand)
        loaded = await matches.handle(match, seat, CommandRequest(command=command))
    return loaded


def never(state: MatchState) -> bool:
    return False


def over(state: MatchState) -> bool:
    return state.phase is Phase.MATCH_OVER


async def raw_events(matches: MatchService, match_id: str) -> list[tuple[int, Any]]:
    """The match's events exactly as stored, as JSON."""
    records = await matches.streams.store.read_stream(stream_id(match_id))
    return [(record.version, msgspec.json.decode(record.data)) for record in records]
