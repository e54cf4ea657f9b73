"""What only the PostgreSQL store can show: SQL-level tampering, the append-only trigger,
transactions held open while others commit, and the jsonb copy of each event."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest

from adapters.postgres.append_statement import APPEND, append_params
from adapters.postgres.event_store import PostgresEventStore
from service.errors import IdempotencyKeyReused
from service.ports.event_store import NewEvent
from service.store.hash_chain import GENESIS, link_hash
from service.store.upcasting import canonical_json
from tests.contract.test_event_store_contract import settled


def event(type: str = "E", **data: object) -> NewEvent:
    return NewEvent(type, 1, canonical_json(data))


async def tamper(url: str, *statements: str) -> None:
    """Change events the way the table's owner could: with the append-only trigger off."""
    async with await psycopg.AsyncConnection.connect(url) as owner:
        await owner.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        for statement in statements:
            await owner.execute(statement)
        await owner.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")


async def six_events(store: PostgresEventStore) -> None:
    await store.append("match-1", [event(n=n) for n in range(1, 7)], expected_version=0)
    await store.append("match-2", [event(n=n) for n in range(1, 3)], expected_version=0)


# Guarantee 5: append-only


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET data = convert_to('{\"n\":9}', 'UTF8') WHERE version = 1",
        "DELETE FROM events WHERE version = 1",
        "TRUNCATE events",
    ],
    ids=["update", "delete", "truncate"],
)
async def test_events_cannot_be_changed_through_the_applications_access(
    pg_store: PostgresEventStore, fresh_database_url: str, statement: str
) -> None:
    await six_events(pg_store)

    async with await psycopg.AsyncConnection.connect(fresh_database_url) as app:
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="append-only"):
            await app.execute(statement)

    assert len(await pg_store.read_stream("match-1")) == 6
    assert (await pg_store.verify_stream("match-1")).ok


# Guarantee 4: tamper evidence names the first broken link


IN_MATCH_1 = "stream_id = 'match-1'"


@pytest.mark.parametrize(
    ("statements", "broken_version", "problem"),
    [
        (
            [f"UPDATE events SET data = '{{\"n\":30}}' WHERE {IN_MATCH_1} AND version = 3"],
            3,
            "stored hash does not match",
        ),
        (
            [f"UPDATE events SET type = 'F' WHERE {IN_MATCH_1} AND version = 3"],
            3,
            "stored hash does not match",
        ),
        (
            [f"UPDATE events SET schema_version = 2 WHERE {IN_MATCH_1} AND version = 4"],
            4,
            "stored hash does not match",
        ),
        ([f"DELETE FROM events WHERE {IN_MATCH_1} AND version = 3"], 3, "version 3 is missing"),
        ([f"DELETE FROM events WHERE {IN_MATCH_1} AND version = 6"], 6, "head records version 6"),
        (
            [
                f"UPDATE events SET version = 1000 WHERE {IN_MATCH_1} AND version = 2",
                f"UPDATE events SET version = 2 WHERE {IN_MATCH_1} AND version = 4",
                f"UPDATE events SET version = 4 WHERE {IN_MATCH_1} AND version = 1000",
            ],
            2,
            "stored hash does not match",
        ),
        (
            [
                "UPDATE events e SET data = o.data FROM events o"
                " WHERE e.stream_id = 'match-1' AND o.stream_id = 'match-1'"
                " AND (e.version, o.version) IN ((2, 5), (5, 2))"
            ],
            2,
            "stored hash does not match",
        ),
    ],
    ids=[
        "edited-data",
        "edited-type",
        "edited-schema-version",
        "deleted",
        "deleted-last",
        "reordered",
        "swapped-data",
    ],
)
async def test_verification_names_the_first_link_broken_in_sql(
    pg_store: PostgresEventStore,
    fresh_database_url: str,
    statements: list[str],
    broken_version: int,
    problem: str,
) -> None:
    await six_events(pg_store)
    await tamper(fresh_database_url, *statements)

    report = await pg_store.verify_stream("match-1")

    assert report.broken is not None
    assert report.broken.version == broken_version
    assert problem in report.broken.problem
    assert (await pg_store.verify_stream("match-2")).ok


async def test_an_edit_with_a_recomputed_hash_breaks_the_next_link(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    await six_events(pg_store)
    second = (await pg_store.read_stream("match-1"))[1]
    forged = canonical_json({"n": 300})
    forged_hash = link_hash(second.hash, "match-1", 3, "E", 1, forged)
    await tamper(
        fresh_database_url,
        f"UPDATE events SET data = '\\x{forged.hex()}', hash = '\\x{forged_hash.hex()}'"
        " WHERE stream_id = 'match-1' AND version = 3",
    )

    report = await pg_store.verify_stream("match-1")

    assert report.broken is not None
    assert report.broken.version == 4
    assert report.events_checked == 3


# Guarantee 3: gap-free global order


async def test_a_reader_never_skips_an_event_whose_transaction_commits_late(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    await pg_store.append("before", [event(n=0)], expected_version=0)
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as slow:
        held = await slow.execute(APPEND, append_params("slow", [event(n=1)], 0, GENESIS, None))
        row = await held.fetchone()
        assert row is not None
        (slow_position,) = row[4]
        fast = await pg_store.append("fast", [event(n=2)], expected_version=0)
        # The held event drew the lower position: a plain "position > cursor" reader that read
        # now would move its cursor past it and never see it.
        assert slow_position < fast.positions[0]

        page = await pg_store.read_all()
        assert [e.stream_id for e in page] == ["before"]
        cursor = page[-1].position
        assert await pg_store.read_all(after_position=cursor) == []
    # Leaving the block commits the held transaction.

    rest = await pg_store.read_all(after_position=cursor)
    assert [e.stream_id for e in rest] == ["slow", "fast"]


async def test_a_subscriber_paging_during_out_of_order_commits_sees_every_event_once(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    writers, appends_each = 6, 8
    rng = random.Random(7)
    written: list[int] = []

    async def slow_writer(stream: str) -> None:
        async with await psycopg.AsyncConnection.connect(fresh_database_url) as connection:
            previous = GENESIS
            for version in range(appends_each):
                held = await connection.execute(
                    APPEND, append_params(stream, [event(v=version)], version, previous, None)
                )
                row = await held.fetchone()
                assert row is not None
                assert row[0] == "appended"
                previous = row[5]
                await asyncio.sleep(rng.uniform(0, 0.015))
                await connection.commit()
                written.extend(row[4])

    async def subscriber(done: asyncio.Event) -> list[int]:
        seen: list[int] = []
        cursor = 0
        while not done.is_set() or len(seen) < len(written):
            page = await pg_store.read_all(after_position=cursor, limit=4)
            seen.extend(e.position for e in page)
            cursor = page[-1].position if page else cursor
            await asyncio.sleep(0 if page else 0.002)
        return seen

    done = asyncio.Event()
    reading = asyncio.create_task(subscriber(done))
    await asyncio.gather(*(slow_writer(f"s{n}") for n in range(writers)))
    done.set()
    seen = await asyncio.wait_for(reading, timeout=30)

    assert len(seen) == len(set(seen)) == writers * appends_each
    assert sorted(seen) == sorted(written)


async def log_streams(store: PostgresEventStore, count: int, wait: float = 10.0) -> list[str]:
    """The streams of the global log's events, once it holds ``count`` of them (or ``wait``
    seconds on)."""
    await settled(store, count, wait)
    return [e.stream_id for e in await store.read_all()]


async def test_a_write_left_open_in_any_database_of_the_server_holds_the_log_back(
    pg_store: PostgresEventStore, database_url: str
) -> None:
    """Transaction ids belong to the whole PostgreSQL server: a transaction that took one (it
    wrote) and stays open, in another database too, holds back every event committed after it
    began, and so the feed, webhooks, inboxes and log checkpoints (docs/operations.md). One that
    only reads holds nothing back."""
    await pg_store.append("before", [event(n=0)], expected_version=0)
    async with await psycopg.AsyncConnection.connect(database_url) as reader:
        await reader.execute("SELECT count(*) FROM events")  # a transaction, open, with no id
        await pg_store.append("read", [event(n=1)], expected_version=0)
        assert await log_streams(pg_store, 2) == ["before", "read"]

    async with await psycopg.AsyncConnection.connect(database_url) as writer:
        await writer.execute("SELECT pg_current_xact_id()")  # as a write would, takes an id
        await pg_store.append("after", [event(n=2)], expected_version=0)
        # Far longer than any wake-up's moment: the writer alone holds it back now.
        assert await log_streams(pg_store, 3, wait=1.0) == ["before", "read"]
    # Leaving the block commits the writer.

    assert await log_streams(pg_store, 3) == ["before", "read", "after"]


# Idempotency across streams, and the jsonb copy


async def test_a_key_taken_by_a_concurrent_append_to_another_stream_is_refused(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as first:
        await first.execute(APPEND, append_params("stream-a", [event(n=1)], 0, GENESIS, "cmd-1"))
        contender = asyncio.create_task(
            pg_store.append("stream-b", [event(n=1)], expected_version=0, idempotency_key="cmd-1")
        )
        await asyncio.sleep(0.2)
        assert not contender.done(), "the second append waits for the first one's key"

    with pytest.raises(IdempotencyKeyReused):
        await contender
    assert await pg_store.read_stream("stream-b") == []
    assert len(await pg_store.read_stream("stream-a")) == 1


async def test_each_event_is_queryable_as_jsonb(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    await pg_store.append(
        "match-1",
        [event("Drew", seat=1, source="stock"), event("Discarded", seat=1, card="Td")],
        expected_version=0,
    )

    async with await psycopg.AsyncConnection.connect(fresh_database_url) as connection:
        cursor = await connection.execute(
            "SELECT type, body->>'card' FROM events WHERE body @> '{\"seat\": 1}' ORDER BY version"
        )
        rows = await cursor.fetchall()

    assert rows == [("Drew", None), ("Discarded", "Td")]
