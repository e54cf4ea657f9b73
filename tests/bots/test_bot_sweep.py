"""The bot sweep over its ports (in memory here; the contract suites hold the PostgreSQL
adapters to the same): every match with a bot seat whose stream holds no match win."""

from __future__ import annotations

import uuid

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.match_registry import InMemoryMatchRegistry
from domain import Drew, MatchWon, RuleOptions
from service.bots.background import DueMatches, unfinished_bot_matches
from service.bots.runner import BotRunner
from service.matches.use_cases import MatchService
from service.ports.match_registry import RegisteredSeat
from service.store.codec import to_record
from service.store.match_streams import MatchStreams, stream_id


async def test_the_sweep_finds_bot_matches_not_yet_won() -> None:
    store, registry = InMemoryEventStore(), InMemoryMatchRegistry()
    playing, won, never_started, person_only = (str(uuid.uuid4()) for _ in range(4))
    for match_id in (playing, won, never_started, person_only):
        bot = None if match_id == person_only else "simple"
        seats = [RegisteredSeat(0, b"t" * 32, ""), RegisteredSeat(1, None, "", bot=bot)]
        await registry.create(match_id, external_ref=None, server_secret=b"s" * 32, seats=seats)
    drew = to_record(Drew(seat=0, source="stock", card="Ac"))
    for match_id in (playing, won, person_only):
        await store.append(stream_id(match_id), [drew], expected_version=0)
    await store.append(
        stream_id(won), [to_record(MatchWon(0, [100, 0], [1, 0]))], expected_version=1
    )

    assert await unfinished_bot_matches(registry, store) == {playing, never_started}


async def test_wake_ups_make_match_streams_due_and_a_missed_one_a_sweep() -> None:
    due = DueMatches()
    assert await due.next() == (set(), True)  # a sweep on starting
    match_id = str(uuid.uuid4())

    due.notice(stream_id(match_id))
    due.notice("not-a-match")
    assert await due.next() == ({match_id}, False)
    due.notice(None)
    assert await due.next() == (set(), True)


async def test_matches_no_bot_plays_are_not_made_due() -> None:
    quiet, busy = str(uuid.uuid4()), str(uuid.uuid4())
    due = DueMatches(ignored=lambda match_id: match_id == quiet)
    await due.next()  # the sweep on starting

    due.notice(stream_id(quiet))
    due.notice(stream_id(busy))
    assert await due.next() == ({busy}, False)


async def test_the_runner_learns_which_matches_no_bot_plays() -> None:
    matches = MatchService(MatchStreams(InMemoryEventStore()), InMemoryMatchRegistry())
    runner = BotRunner(matches)
    person_only = (await matches.create_match(options=RuleOptions())).match_id
    with_bot = (await matches.create_match(options=RuleOptions(), bots=[None, "random"])).match_id
    assert not runner.known_without_bots(person_only)

    await runner.resume(person_only)
    await runner.resume(with_bot)

    assert runner.known_without_bots(person_only)
    assert not runner.known_without_bots(with_bot)
