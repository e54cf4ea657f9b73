"""Appends from stores that do not see each other's appends, as two server processes: each
chains its events to the stream head it last saw, and the head in the database decides."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import psycopg
import pytest

from adapters.postgres.event_store import PostgresEventStore
from adapters.postgres.heads import Heads
from service.ports.event_store import AppendResult, ConcurrencyConflict, NewEvent
from service.store.hash_chain import GENESIS, chain, link_hash
from service.store.upcasting import canonical_json
from tests.app_login import as_app


def event(**data: object) -> NewEvent:
    return NewEvent("E", 1, canonical_json(data))


@pytest.fixture
async def stores(fresh_database_url: str) -> AsyncIterator[tuple[PostgresEventStore, ...]]:
    url = as_app(fresh_database_url)
    async with (
        PostgresEventStore.connect(url, max_size=2) as first,
        PostgresEventStore.connect(url, max_size=2) as second,
    ):
        yield first, second


async def test_racing_stores_win_exactly_one_version_each(
    stores: tuple[PostgresEventStore, ...],
) -> None:
    first, second = stores
    for version in range(12):
        outcomes = await asyncio.gather(
            *(
                s.append("match-r", [event(by=n)], expected_version=version)
                for n, s in enumerate(stores)
            ),
            return_exceptions=True,
        )
        won = [o for o in outcomes if isinstance(o, AppendResult)]
        lost = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
        assert (len(won), len(lost)) == (1, 1), outcomes
        assert won[0].last_version == version + 1
        assert lost[0].current == version + 1

    assert [e.version for e in await first.read_stream("match-r")] == list(range(1, 13))
    assert (await second.verify_stream("match-r")).ok


async def test_a_store_that_missed_appends_chains_to_the_stored_head(
    stores: tuple[PostgresEventStore, ...],
) -> None:
    first, second = stores
    await first.append("match-m", [event(n=1)], expected_version=0)
    await second.append("match-m", [event(n=2), event(n=3)], expected_version=1)

    # The first store last saw version 1; its append at version 3 chains to the stored head.
    appended = await first.append("match-m", [event(n=4)], expected_version=3)
    with pytest.raises(ConcurrencyConflict) as stale:
        await second.append("match-m", [event(n=5)], expected_version=3)
    again = await second.append("match-m", [event(n=5)], expected_version=4)

    assert (appended.last_version, stale.value.current, again.last_version) == (4, 4, 5)
    stored = await first.read_stream("match-m")
    assert [e.data for e in stored] == [event(n=n).data for n in range(1, 6)]
    assert (await first.verify_stream("match-m")).ok


async def test_an_append_chains_to_the_head_the_database_holds_not_the_one_last_seen(
    stores: tuple[PostgresEventStore, ...], fresh_database_url: str
) -> None:
    first, _ = stores
    await first.append("match-h", [event(n=1), event(n=2)], expected_version=0)
    one, two = await first.read_stream("match-h")
    # The table's owner rewrites the last event and its hash, and the head with it: the store
    # saw the head at this same version with another hash.
    forged = canonical_json({"n": 200})
    forged_hash = link_hash(one.hash, "match-h", 2, "E", 1, forged)
    assert forged_hash != two.hash
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as owner:
        await owner.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        await owner.execute(
            "UPDATE events SET data = %s, hash = %s WHERE stream_id = 'match-h' AND version = 2",
            (forged, forged_hash),
        )
        await owner.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
        await owner.execute(
            "UPDATE streams SET last_hash = %s WHERE stream_id = 'match-h'", (forged_hash,)
        )

    appended = await first.append("match-h", [event(n=3)], expected_version=2)

    third = (await first.read_stream("match-h", after_version=2))[0]
    assert (
        third.hash == appended.last_hash == link_hash(forged_hash, "match-h", 3, "E", 1, third.data)
    )
    assert (await first.verify_stream("match-h")).ok


async def test_the_adapters_hashes_are_those_the_function_before_0021_computed_in_sql(
    stores: tuple[PostgresEventStore, ...],
) -> None:
    # One stream appended by turns through 0009's function (hashes made in SQL, as a server of
    # the release before 0021 still appends during an upgrade) and through today's statement.
    in_sql, here = stores
    in_sql._append = 2  # the fallback the adapter takes on a database before 0021 (0009's)
    events = [event(n=n, text="é ✓") for n in range(1, 7)]
    for version in range(0, 6, 2):
        writer = in_sql if version % 4 == 0 else here
        await writer.append("match-s", events[version : version + 2], expected_version=version)

    stored = await here.read_stream("match-s")
    assert [e.hash for e in stored] == chain(GENESIS, "match-s", 1, events)
    assert (await in_sql.verify_stream("match-s")).ok


def test_a_head_seen_by_a_late_read_does_not_replace_a_later_one() -> None:
    heads = Heads(limit=2)
    heads.saw("a", 3, b"3")
    heads.saw("a", 2, b"2")  # a read that started before the append at 3 answered after it
    assert heads.get("a") == (3, b"3")


def test_the_head_seen_longest_ago_goes_first() -> None:
    heads = Heads(limit=2)
    heads.saw("a", 1, b"a")
    heads.saw("b", 1, b"b")
    heads.saw("a", 2, b"a2")  # seen again: now the newest
    heads.saw("c", 1, b"c")
    assert [heads.get(s) for s in "abc"] == [(2, b"a2"), None, (1, b"c")]
