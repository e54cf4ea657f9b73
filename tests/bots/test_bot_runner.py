"""The bot runner: a bot is shown its own seat's view and nothing else, and a bot move that two
processes try at once is made once, the loser hearing of it without an error."""

from __future__ import annotations

import asyncio
import logging

import msgspec

from domain import (
    Command,
    MatchState,
    Phase,
    SeatView,
    decide,
    decode_event,
    evolve,
    legal_actions,
    new_match,
)
from domain import view as seat_view
from service.bots import Bot, bot_for
from service.bots.runner import BotRunner
from service.matches.use_cases import MatchService
from tests.api.knowledge import TableKnowledge, view_leaks
from tests.bots.processes import (
    LONG_GAME,
    ONE_SHORT_GAME,
    over,
    person_plays,
    process,
    raw_events,
)

BOT, PERSON = 1, 0


class RecordingBot:
    """A real bot of the level asked for, noting every argument it is called with."""

    def __init__(self, level: str, calls: list[object]) -> None:
        self._bot: Bot = bot_for(level)
        self._calls = calls

    def choose(self, view: SeatView) -> Command:
        self._calls.append(view)
        return self._bot.choose(view)


def states(events: list[tuple[int, object]]) -> dict[int, MatchState]:
    """The state after each version, folded from the stored events."""
    state, after = new_match(), {}
    for version, event in events:
        state = evolve(state, decode_event(msgspec.json.encode(event)))
        after[version] = state
    return after


async def test_the_bot_decides_from_its_seats_view_alone(fresh_database_url: str) -> None:
    checked = 0
    async with process(fresh_database_url) as matches:
        # A short game can end after a hand or two: play matches until the bot has been asked
        # often enough, checking every call of every match.
        for _ in range(20):
            calls: list[object] = []
            events = await play_against_a_recording_bot(matches, calls)
            check_views(calls, events)
            checked += len(calls)
            if checked >= 10:
                break
    assert checked >= 10


async def play_against_a_recording_bot(
    matches: MatchService, calls: list[object]
) -> list[tuple[int, object]]:
    """A match of the person against a strong bot that notes its calls; its raw events."""
    runner = BotRunner(matches, bots=lambda level: RecordingBot(level, calls))
    match_id = (await matches.create_match(options=ONE_SHORT_GAME, bots=[None, "strong"])).match_id
    await runner.resume(match_id)
    match = await matches.match(match_id)
    loaded = await matches.load(match)
    while loaded.state.phase is not Phase.MATCH_OVER:
        loaded = await runner.answer(
            match, await person_plays(matches, match_id, PERSON, until=over)
        )
    return await raw_events(matches, match_id)


def check_views(calls: list[object], events: list[tuple[int, object]]) -> None:
    knowledge = TableKnowledge(events)
    bot_views = {
        version: seat_view(state, BOT)
        for version, state in states(events).items()
        if state.turn == BOT
    }
    for argument in calls:
        assert isinstance(argument, SeatView)
        assert argument.seat == BOT
        # It is the bot seat's view of the match as it stood at some version...
        version = next(v for v, expected in bot_views.items() if expected == argument)
        # ...and names no card that seat could not know then (worked out from the raw log).
        assert not view_leaks(knowledge, BOT, version, msgspec.to_builtins(argument))


class Notes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def test_a_bot_move_two_processes_make_at_once_is_made_once(fresh_database_url: str) -> None:
    notes, log = Notes(), logging.getLogger("gin.bots")
    log.addHandler(notes)
    level, log.level = log.level, logging.DEBUG
    strong = bot_for("strong")
    try:
        async with process(fresh_database_url) as first, process(fresh_database_url) as second:
            runners = BotRunner(first), BotRunner(second)
            # A game that lasts all twelve rounds, so the two runners race twelve times.
            match_id = (await first.create_match(options=LONG_GAME, bots=[None, "strong"])).match_id
            for _ in range(12):
                before = await person_plays(first, match_id, PERSON, until=over)
                if before.state.phase is Phase.MATCH_OVER:
                    break
                await asyncio.gather(*(runner.resume(match_id) for runner in runners))
                after = await first.load(match_id)
                assert after.state.turn in (PERSON, None)
                stored = await raw_events(first, match_id)

                # The log from ``before`` on is one bot's moves, each made once: what the strong
                # bot decides on its view at each version, and the system steps (deals) after.
                rest = [decode_event(msgspec.json.encode(e)) for _, e in stored[before.version :]]
                state = before.state
                while state.turn == BOT:
                    decided = decide(state, strong.choose(seat_view(state, BOT)))
                    assert rest[: len(decided)] == decided
                    for event in decided:
                        state = evolve(state, event)
                    rest = rest[len(decided) :]
                    while legal_actions(state, None):
                        state, rest = evolve(state, rest[0]), rest[1:]
                assert rest == []
                assert state == after.state
    finally:
        log.removeHandler(notes)
        log.level = level

    assert not [r for r in notes.records if r.levelno >= logging.WARNING]
    assert any(r.getMessage() == "bot move superseded" for r in notes.records)
