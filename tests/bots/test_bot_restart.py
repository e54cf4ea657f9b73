"""Bots keep playing across processes: a match left waiting on a bot when its process stopped
is played by the next process to start, and a bot move made due by one process is played by
another that only heard of it through the database's notifications."""

from __future__ import annotations

import asyncio
import time

from litestar.testing import AsyncTestClient

from service.matches.use_cases import MatchService
from service.store.match_streams import Loaded
from tests.bots.processes import LONG_GAME, never, person_plays, process
from tests.bots.table import bearer
from web.app import create_app
from web.settings import Settings

BOT, PERSON = 1, 0


# Generous: on a busy machine a process takes a while to start and hear of a match.
BOT_SECONDS = 60.0


async def wait_for_the_bot(
    matches: MatchService, match_id: str, seconds: float = BOT_SECONDS
) -> Loaded:
    """The match once the bot has made every move due (it is the person's turn again)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        loaded = await matches.load(match_id)
        if loaded.state.turn != BOT:
            return loaded
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot did not move within {seconds}s")


async def test_a_new_process_resumes_a_match_left_waiting_on_a_bot(fresh_database_url: str) -> None:
    # A process with no bot runner stands for one that stopped before its bot could answer.
    # The game is too long to end, so every person's turn ends with the bot to act.
    async with process(fresh_database_url) as stopped:
        created = await stopped.create_match(options=LONG_GAME, bots=[None, "strong"])
        waiting = await person_plays(stopped, created.match_id, PERSON, until=never)
        assert waiting.state.turn == BOT

    app = create_app(Settings(database_url=fresh_database_url))
    async with AsyncTestClient(app=app) as client:
        path = f"/matches/{created.match_id}/view"
        deadline = time.monotonic() + BOT_SECONDS
        # A bot's turn may take two commands (a draw, then a discard): wait for all of them.
        while time.monotonic() < deadline:
            view = (await client.get(path, headers=bearer(created.tokens[PERSON]))).json()
            if view["turn"] != BOT:
                break
            await asyncio.sleep(0.05)

    assert view["version"] > waiting.version
    assert view["turn"] == PERSON


async def test_a_running_process_answers_bot_moves_made_due_by_another(
    fresh_database_url: str,
) -> None:
    app = create_app(Settings(database_url=fresh_database_url))
    async with AsyncTestClient(app=app), process(fresh_database_url) as other:
        created = await other.create_match(options=LONG_GAME, bots=[None, "strong"])
        answered = 0
        while answered < 5:
            loaded = await wait_for_the_bot(other, created.match_id)
            loaded = await person_plays(other, created.match_id, PERSON, until=never)
            if loaded.state.turn == BOT:
                answered += 1
            else:
                break
        await wait_for_the_bot(other, created.match_id)

    assert answered == 5
