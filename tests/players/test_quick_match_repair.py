"""A process that dies between pairing two players and making their match, on PostgreSQL: the
pair is made into exactly one match, by whichever process claims it first once the dead
maker's hold lapses, and both players play it with their credentials."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import pytest

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.quick_match import PostgresQuickMatchQueue
from domain import Phase, RuleOptions, view
from domain.commands import SeatCommand
from service.bots import bot_for
from service.matches.use_cases import CommandRequest, MatchService
from service.players.accounts import Accounts
from service.players.quick_match import QuickMatch
from service.ports.match_registry import MatchRegistry
from service.ports.quick_match import Paired, QuickMatchQueue
from service.store.match_streams import MatchStreams, stream_id
from tests.app_login import as_app

OPTIONS = RuleOptions(game_target=1, knock_limit=9)
HOLD = timedelta(seconds=10)
PERSON = bot_for("simple")


class Died(Exception):  # noqa: N818  (what the test makes happen)
    """The process stops here: nothing after this point runs."""


class DiesAfterPairing:
    """The queue of a process that dies as soon as its pairing has committed."""

    def __init__(self, queue: QuickMatchQueue) -> None:
        self._queue = queue

    def __getattr__(self, name: str) -> object:
        return getattr(self._queue, name)

    async def ask(self, *args: object, **kwargs: object) -> Paired | None:
        paired = await self._queue.ask(*args, **kwargs)  # type: ignore[arg-type]
        if paired is not None:
            raise Died
        return None


class DiesAfterRegistering:
    """The registry of a process that dies once a match is registered, before it starts."""

    def __init__(self, registry: MatchRegistry) -> None:
        self._registry = registry

    def __getattr__(self, name: str) -> object:
        return getattr(self._registry, name)

    async def create(self, *args: object, **kwargs: object) -> None:
        await self._registry.create(*args, **kwargs)  # type: ignore[arg-type]
        raise Died


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Process:
    def __init__(self, accounts: Accounts, quick_match: QuickMatch) -> None:
        self.accounts = accounts
        self.matches = accounts.matches
        self.quick_match = quick_match


@asynccontextmanager
async def process(
    url: str, clock: Clock, *, dies_after: str | None = None
) -> AsyncIterator[Process]:
    """One server process's use cases, with a pool and caches of its own."""
    async with open_pool(as_app(url), min_size=1, max_size=5) as pool:
        registry: MatchRegistry = PostgresMatchRegistry(pool)
        if dies_after == "registering":
            registry = DiesAfterRegistering(registry)  # type: ignore[assignment]
        matches = MatchService(MatchStreams(PostgresEventStore(pool)), registry)
        players = PostgresPlayers(pool)
        accounts = Accounts(players, matches)
        matches.player_seat = accounts.seat_for_credential
        queue: QuickMatchQueue = PostgresQuickMatchQueue(pool)
        if dies_after == "pairing":
            queue = DiesAfterPairing(queue)  # type: ignore[assignment]
        yield Process(accounts, QuickMatch(queue, accounts, clock=clock, hold=HOLD))
        await players.close()


async def pair_in_a_dying_process(url: str, clock: Clock, dies_after: str) -> list[str]:
    """Two players' credentials, paired by a process that died before their match was made."""
    async with process(url, clock, dies_after=dies_after) as dying:
        waiting = await dying.accounts.sign_up("Waiting")
        asker = await dying.accounts.sign_up("Asker")
        assert (await dying.quick_match.ask(waiting.player, OPTIONS)).status == "waiting"
        with pytest.raises(Died):
            await dying.quick_match.ask(asker.player, OPTIONS)
    return [waiting.credential, asker.credential]


async def both_play(live: Process, credentials: list[str]) -> str:
    """The one match both players are paired into, once each has played in it."""
    statuses = [
        await live.quick_match.status(await live.accounts.authenticate(c)) for c in credentials
    ]
    assert [s.status for s in statuses] == ["paired", "paired"]
    assert [s.seat for s in statuses] == [0, 1]
    match_id = statuses[0].match_id
    assert match_id is not None
    assert statuses[1].match_id == match_id
    moved: set[int] = set()
    while moved != {0, 1}:
        loaded = await live.matches.load(match_id)
        assert loaded.state.phase is not Phase.MATCH_OVER
        assert loaded.state.turn is not None
        seated = await live.matches.authenticate(match_id, credentials[loaded.state.turn])
        command = PERSON.choose(view(loaded.state, seated.seat))
        assert isinstance(command, SeatCommand)
        await live.matches.handle(seated.match, seated.seat, CommandRequest(command=command))
        moved.add(seated.seat)
    return match_id


async def stored_starts(live: Process, match_id: str) -> int:
    records = await live.matches.streams.store.read_stream(stream_id(match_id))
    return sum(record.type == "match_created" for record in records)


@pytest.mark.parametrize("dies_after", ["pairing", "registering"])
async def test_two_processes_repairing_at_once_make_the_match_once(
    fresh_database_url: str, dies_after: str
) -> None:
    clock = Clock()
    credentials = await pair_in_a_dying_process(fresh_database_url, clock, dies_after)
    async with process(fresh_database_url, clock) as a, process(fresh_database_url, clock) as b:
        assert await a.quick_match.repair() == 0  # the dead maker's hold has not lapsed
        clock.now += HOLD
        made = await asyncio.gather(a.quick_match.repair(), b.quick_match.repair())
        assert sorted(made) == [0, 1]
        assert await a.quick_match.repair() == await b.quick_match.repair() == 0
        match_id = await both_play(b, credentials)
        assert await stored_starts(a, match_id) == 1


async def test_reading_the_quick_match_makes_the_match_its_maker_left(
    fresh_database_url: str,
) -> None:
    clock = Clock()
    credentials = await pair_in_a_dying_process(fresh_database_url, clock, "pairing")
    async with process(fresh_database_url, clock) as live:
        clock.now += HOLD
        waiting = await live.accounts.authenticate(credentials[0])
        status = await live.quick_match.status(waiting)  # no repair has run: this makes it
        assert status.match_id is not None
        assert (await live.matches.load(status.match_id)).state.options == OPTIONS
        assert await live.quick_match.repair() == 0
        assert await both_play(live, credentials) == status.match_id


async def test_a_live_makers_pair_is_never_made_twice(fresh_database_url: str) -> None:
    clock = Clock()
    async with process(fresh_database_url, clock) as a, process(fresh_database_url, clock) as b:
        credentials = []
        for name in ("Waiting", "Asker"):
            signed = await a.accounts.sign_up(name)
            credentials.append(signed.credential)
            await a.quick_match.ask(signed.player, OPTIONS)
        clock.now += HOLD * 3
        assert await b.quick_match.repair() == 0
        match_id = await both_play(b, credentials)
        assert await stored_starts(b, match_id) == 1
