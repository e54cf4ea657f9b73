"""The bot seats contract, on both adapters: every match with a bot seat, and no other."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from adapters.memory.bot_seats import InMemoryBotSeats
from adapters.postgres.bot_seats import PostgresBotSeats
from adapters.postgres.event_store import open_pool
from service.ports.bot_seats import BotSeats

# Seat a match: its seats' bot levels (None: a person). Returns the match id.
SeatMatch = Callable[[list[str | None]], Awaitable[str]]


@pytest.fixture(params=["memory", "postgres"])
async def seats(request: pytest.FixtureRequest) -> AsyncIterator[tuple[BotSeats, SeatMatch]]:
    if request.param == "memory":
        memory = InMemoryBotSeats()

        async def seat_in_memory(levels: list[str | None]) -> str:
            match_id = str(uuid.uuid4())
            for seat, level in enumerate(levels):
                if level is not None:
                    memory.seat_bot(match_id, seat, level)
            return match_id

        yield memory, seat_in_memory
        return
    url: str = request.getfixturevalue("fresh_database_url")
    async with open_pool(url, max_size=2) as pool:

        async def seat_in_postgres(levels: list[str | None]) -> str:
            match_id = str(uuid.uuid4())
            async with pool.connection() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO matches (match_id, server_secret) VALUES (%s, %s)",
                    (match_id, os.urandom(32)),
                )
                for seat, level in enumerate(levels):
                    await conn.execute(
                        "INSERT INTO match_seats (match_id, seat, bot) VALUES (%s, %s, %s)",
                        (match_id, seat, level),
                    )
            return match_id

        yield PostgresBotSeats(pool), seat_in_postgres


async def test_no_matches_means_no_bot_matches(
    seats: tuple[BotSeats, SeatMatch],
) -> None:
    bot_seats, _ = seats
    assert await bot_seats.matches_with_bots() == set()


async def test_every_match_with_a_bot_seat_is_listed_once_and_no_other(
    seats: tuple[BotSeats, SeatMatch],
) -> None:
    bot_seats, seat_match = seats
    one_bot = await seat_match([None, "simple"])
    two_bots = await seat_match(["random", "strong"])
    await seat_match([None, None])

    assert await bot_seats.matches_with_bots() == {one_bot, two_bots}
