"""The contract of the quick-match queue, for the PostgreSQL and the in-memory adapters."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from adapters.memory.quick_match import InMemoryQuickMatchQueue
from adapters.postgres.event_store import open_pool
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.quick_match import PostgresQuickMatchQueue
from service.errors import AlreadyQueued
from service.matches.tokens import secret_hash
from service.ports.quick_match import QuickMatchQueue
from tests.app_login import as_app
from tests.contract.conftest import ADAPTERS

T0 = datetime(2026, 11, 30, 12, tzinfo=UTC)
LATER = T0 + timedelta(minutes=2)
KEY = '{"knock_limit":10}'
HOLD = timedelta(seconds=10)


class Queue:
    def __init__(self, queue: QuickMatchQueue, players: PostgresPlayers | None) -> None:
        self.queue = queue
        self._players = players

    async def player(self) -> str:
        player_id = str(uuid.uuid4())
        if self._players is not None:  # PostgreSQL: the queue refers to real players
            await self._players.create(player_id, "P", secret_hash(player_id))
        return player_id

    async def ask(
        self, player_id: str, key: str = KEY, now: datetime = T0, seats: int = 2
    ) -> list[str] | None:
        """The players the asker was paired with, in seat order (None: queued)."""
        paired = await self.queue.ask(
            player_id,
            key,
            now=now,
            expires_at=now + timedelta(minutes=1),
            match_id=new_id(),
            hold_until=now + HOLD,
            seats=seats,
        )
        return None if paired is None else paired.waiting_ids


def new_id() -> str:
    return str(uuid.uuid4())


@pytest.fixture(params=ADAPTERS)
async def queue(request: pytest.FixtureRequest) -> AsyncIterator[Queue]:
    if request.param == "memory":
        yield Queue(InMemoryQuickMatchQueue(), None)
    else:
        url: str = request.getfixturevalue("fresh_database_url")
        async with open_pool(as_app(url), max_size=20) as pool:
            players = PostgresPlayers(pool)
            yield Queue(PostgresQuickMatchQueue(pool), players)
            await players.close()


async def test_the_second_asker_pairs_with_the_first(queue: Queue) -> None:
    first, second = await queue.player(), await queue.player()
    assert await queue.ask(first) is None
    assert await queue.ask(second) == [first]
    mine, theirs = await queue.queue.entry(second), await queue.queue.entry(first)
    assert mine is not None
    assert theirs is not None
    assert mine.match_id == theirs.match_id is not None
    assert (theirs.seat, mine.seat) == (0, 1)


async def test_only_the_same_options_pair(queue: Queue) -> None:
    first, second = await queue.player(), await queue.player()
    assert await queue.ask(first) is None
    assert await queue.ask(second, key='{"knock_limit":0}') is None


async def test_asking_again_while_waiting_is_refused_and_changes_nothing(queue: Queue) -> None:
    first = await queue.player()
    assert await queue.ask(first) is None
    before = await queue.queue.entry(first)
    with pytest.raises(AlreadyQueued):
        await queue.ask(first)
    with pytest.raises(AlreadyQueued):
        await queue.ask(first, key='{"knock_limit":0}')
    assert await queue.queue.entry(first) == before


async def test_an_expired_or_cancelled_wait_pairs_nobody(queue: Queue) -> None:
    waited, cancelled, asker = await queue.player(), await queue.player(), await queue.player()
    assert await queue.ask(waited) is None
    assert await queue.ask(cancelled, key="other") is None
    assert await queue.queue.cancel(cancelled, now=T0)
    assert not await queue.queue.cancel(cancelled, now=T0)
    assert await queue.ask(asker, now=LATER) is None  # the first wait timed out
    assert not await queue.queue.cancel(waited, now=LATER)
    assert await queue.ask(waited, now=LATER) == [asker]  # asking anew after a timeout is fine


async def test_many_askers_at_once_pair_each_exactly_once(queue: Queue) -> None:
    players = [await queue.player() for _ in range(40)]
    answers = await asyncio.gather(*(queue.ask(p) for p in players))
    entries = [await queue.queue.entry(p) for p in players]
    match_ids = [e.match_id for e in entries if e is not None]
    assert len(match_ids) == 40
    assert len(set(match_ids)) == 20
    assert sum(a is not None for a in answers) == 20
    for player, answer in zip(players, answers, strict=True):
        if answer is not None:
            mine, theirs = await queue.queue.entry(player), await queue.queue.entry(answer[0])
            assert mine is not None
            assert theirs is not None
            assert mine.match_id == theirs.match_id


async def test_a_pairing_is_pending_and_claimed_by_its_asker_until_its_hold_lapses(
    queue: Queue,
) -> None:
    first, second = await queue.player(), await queue.player()
    assert await queue.ask(first) is None
    assert await queue.ask(second) == [first]
    entry = await queue.queue.entry(second)
    assert entry is not None
    assert entry.match_id is not None
    assert await queue.queue.claim_pending(now=T0, hold_until=T0 + HOLD) == []
    lapsed = T0 + HOLD
    claimed = await queue.queue.claim_pending(
        now=lapsed, hold_until=lapsed + HOLD, match_id=entry.match_id
    )
    assert [(p.match_id, p.options_key, p.waiting_ids, p.asker_id) for p in claimed] == [
        (entry.match_id, KEY, [first], second)
    ]
    assert await queue.queue.claim_pending(now=lapsed, hold_until=lapsed + HOLD) == []
    later = lapsed + HOLD
    assert len(await queue.queue.claim_pending(now=later, hold_until=later + HOLD)) == 1
    await queue.queue.made(entry.match_id, now=later)
    muchlater = later + 10 * HOLD
    assert await queue.queue.claim_pending(now=muchlater, hold_until=muchlater + HOLD) == []


async def test_a_claim_for_one_match_leaves_the_others(queue: Queue) -> None:
    players = [await queue.player() for _ in range(4)]
    for player in players:
        await queue.ask(player)
    entries = [await queue.queue.entry(p) for p in players]
    match_ids = {e.match_id for e in entries if e is not None}
    assert len(match_ids) == 2
    one = sorted(match_id for match_id in match_ids if match_id is not None)[0]
    lapsed = T0 + HOLD
    claimed = await queue.queue.claim_pending(now=lapsed, hold_until=lapsed + HOLD, match_id=one)
    assert [p.match_id for p in claimed] == [one]
    rest = await queue.queue.claim_pending(now=lapsed, hold_until=lapsed + HOLD)
    assert {p.match_id for p in rest} == match_ids - {one}


async def test_claimers_at_once_each_take_a_pair_only_once(queue: Queue) -> None:
    players = [await queue.player() for _ in range(20)]
    for player in players:
        await queue.ask(player)
    lapsed = T0 + HOLD
    claims = await asyncio.gather(
        *(queue.queue.claim_pending(now=lapsed, hold_until=lapsed + HOLD) for _ in range(8))
    )
    claimed = [pair.match_id for claim in claims for pair in claim]
    assert len(claimed) == len(set(claimed)) == 10


@pytest.mark.parametrize("seats", [3, 4])
async def test_a_table_of_three_or_four_waits_for_its_last_player(queue: Queue, seats: int) -> None:
    players = [await queue.player() for _ in range(seats)]
    asked = [T0 + timedelta(seconds=order) for order in range(seats)]
    for player, now in zip(players[:-1], asked, strict=False):
        assert await queue.ask(player, now=now, seats=seats) is None

    assert await queue.ask(players[-1], now=asked[-1], seats=seats) == players[:-1]

    entries = [await queue.queue.entry(player) for player in players]
    assert [e.seat for e in entries if e is not None] == list(range(seats))
    assert len({e.match_id for e in entries if e is not None}) == 1
    lapsed = asked[-1] + HOLD
    (pending,) = await queue.queue.claim_pending(now=lapsed, hold_until=lapsed + HOLD)
    assert (pending.waiting_ids, pending.asker_id) == (players[:-1], players[-1])
    assert pending.player_ids == players


@pytest.mark.parametrize("seats", [3, 4])
async def test_many_askers_at_once_fill_each_table_exactly_once(queue: Queue, seats: int) -> None:
    players = [await queue.player() for _ in range(6 * seats)]
    await asyncio.gather(*(queue.ask(p, seats=seats) for p in players))
    entries = [await queue.queue.entry(p) for p in players]
    tables: dict[str | None, list[int | None]] = {}
    for entry in entries:
        assert entry is not None
        tables.setdefault(entry.match_id, []).append(entry.seat)
    assert None not in tables, "every asker is seated"
    assert len(tables) == 6
    assert all(sorted(seats_taken) == list(range(seats)) for seats_taken in tables.values())  # type: ignore[type-var]
