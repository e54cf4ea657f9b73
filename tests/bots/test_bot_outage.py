"""A bot move an outage stops is not forgotten: the runner notes the match, and the background
loop takes it up again once the database answers (no append will wake it)."""

from __future__ import annotations

import asyncio

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.wakeups import InMemoryWakeups
from domain import Command, SeatView
from service.bots import bot_for
from service.bots.background import running_bots
from service.bots.runner import BotRunner
from service.errors import DatabaseUnavailable
from tests.bots.processes import LONG_GAME, process


class OutageOnce:
    """A real bot whose first decision meets an outage, as its first read would."""

    def __init__(self) -> None:
        self.outages = 1

    def choose(self, view: SeatView) -> Command:
        if self.outages:
            self.outages -= 1
            raise DatabaseUnavailable()
        return bot_for("simple").choose(view)


async def test_a_bot_stopped_by_an_outage_moves_once_the_database_answers(
    fresh_database_url: str,
) -> None:
    bot = OutageOnce()
    async with process(fresh_database_url) as matches:
        runner = BotRunner(matches, bots=lambda level: bot)
        # Who acts first is drawn for each match: one where the bot is to move is needed.
        for _ in range(30):
            created = await matches.create_match(options=LONG_GAME, bots=["simple", None])
            before = await matches.load(created.match_id)
            if before.state.turn == 0:
                break
        # The starting sweep finds the match, and the bot's move meets the outage. Nothing
        # appends to the match after that, so no wake-up comes: only the runner's note does.
        wakeups = InMemoryWakeups(InMemoryEventStore())  # never woken: another store
        async with running_bots(runner, wakeups, matches.registry, matches.streams.store):
            for _ in range(100):
                if (await matches.load(created.match_id)).version > before.version:
                    break
                await asyncio.sleep(0.1)
        assert bot.outages == 0
        assert (await matches.load(created.match_id)).version > before.version
