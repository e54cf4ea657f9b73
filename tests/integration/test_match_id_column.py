"""Migration 0026: every row of a match's streams carries its match id, filled for the rows
stored before, written by every append (this release's and the earlier releases' functions),
and the stored events otherwise unchanged."""

from __future__ import annotations

import itertools
import os
import uuid
from datetime import UTC, datetime

import psycopg
import pytest

from adapters.postgres.append_statement import APPEND, APPENDS, append_params
from adapters.postgres.database import create_database, with_database
from adapters.postgres.deadlines import PostgresDeadlines
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.idle_matches import PostgresIdleMatches
from adapters.postgres.match_ids import NIL, match_id_of_stream
from adapters.postgres.migrate import upgrade
from service.ports.event_store import NewEvent
from service.store.hash_chain import GENESIS
from service.store.match_stream_names import MatchStream
from service.store.upcasting import canonical_json
from tests.app_login import as_app

_names = itertools.count()
TABLES = (
    "events",
    "streams",
    "snapshots",
    "idempotency_keys",
    "match_deadlines",
    "match_abandon_claims",
)
MATCH = "3f2b8c1e-5d4a-4e6b-9c7d-0a1b2c3d4e5f"
# Of every kind of a match's stream, and of none: the nil match.
STREAMS = [kind.of(MATCH) for kind in MatchStream] + ["match-1", "player-" + MATCH]
EVENT_COLUMNS = "position, transaction_id, stream_id, version, type, data, body, hash, recorded_at"


def event(type: str = "E", **data: object) -> NewEvent:
    return NewEvent(type, 1, canonical_json(data))


def deadline() -> NewEvent:
    return event("deadline_set", seat=0, due_at="2030-01-01T00:00:00+00:00")


@pytest.fixture
def database_at_0025(postgres_server_url: str) -> str:
    name = f"gin_test_{os.getpid()}_match_id_{next(_names)}"
    create_database(postgres_server_url, name)
    url = with_database(postgres_server_url, name)
    upgrade(url, "0025")
    return url


def fill_before_0026(url: str) -> None:
    """What a server of the release before 0026 writes: appends through 0021's function."""
    statement, places = APPENDS[1]
    with psycopg.connect(url, autocommit=True) as connection:
        for n, stream in enumerate(STREAMS):
            previous = GENESIS
            for version, events, key in (
                (0, [event(n=n), deadline()], None),
                (2, [event(n=n)], f"k-{n}"),
            ):
                params = append_params(stream, events, version, previous, key)
                row = connection.execute(statement, tuple(params[i] for i in places)).fetchone()
                assert row is not None
                assert row[0] == "appended"
                previous = row[5]
            connection.execute(
                "INSERT INTO snapshots (stream_id, version, state_type, data) "
                "VALUES (%s, 3, 'state', '{}')",
                (stream,),
            )
        connection.execute(
            "INSERT INTO match_abandon_claims (stream_id, lease_until) "
            "SELECT stream_id, now() FROM streams"
        )


async def fill(store: PostgresEventStore) -> None:
    for n, stream in enumerate(STREAMS):
        await store.append(stream, [event(n=n), deadline()], expected_version=0)
        await store.append(stream, [event(n=n)], expected_version=2, idempotency_key=f"k-{n}")
        await store.save_snapshot(stream, 3, "state", b"{}")


def match_ids(url: str, table: str) -> dict[str, uuid.UUID]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(f"SELECT DISTINCT stream_id, match_id FROM {table}").fetchall()
    return dict(rows)


def expected(streams: list[str]) -> dict[str, uuid.UUID]:
    return {
        s: uuid.UUID(MATCH) if s.endswith(MATCH) and "player" not in s else NIL for s in streams
    }


def test_the_match_of_a_stream_is_read_alike_in_python_and_in_sql(database_url: str) -> None:
    upper = MATCH.upper()
    samples = [
        *STREAMS,
        f"match-{upper}",
        f"format-match-{upper}",
        f"fairness-{MATCH}x",
        f"xmatch-{MATCH}",
        "match-",
        "",
        f"format-{MATCH}",
    ]
    with psycopg.connect(database_url) as connection:
        in_sql = [
            connection.execute("SELECT match_id_of_stream(%s)", (s,)).fetchone() for s in samples
        ]
    assert [row[0] if row else None for row in in_sql] == [match_id_of_stream(s) for s in samples]
    assert match_id_of_stream(f"format-match-{MATCH}") == uuid.UUID(MATCH)
    assert match_id_of_stream("match-1") == NIL


async def test_the_rows_stored_before_get_their_match_and_the_events_stay_as_stored(
    database_at_0025: str,
) -> None:
    fill_before_0026(database_at_0025)
    with psycopg.connect(database_at_0025, autocommit=True) as connection:
        before = connection.execute(
            f"SELECT {EVENT_COLUMNS} FROM events ORDER BY position"
        ).fetchall()

    upgrade(database_at_0025)

    for table in TABLES:
        assert match_ids(database_at_0025, table) == expected(STREAMS), table
    with psycopg.connect(database_at_0025, autocommit=True) as connection:
        after = connection.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY position")
        assert after.fetchall() == before
        # The guard that was off for the column's filling is on again.
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("UPDATE events SET match_id = match_id")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("DELETE FROM events")
    async with open_pool(database_at_0025) as pool:
        store = PostgresEventStore(pool, wake_match_streams=False)
        for stream in STREAMS:
            assert (await store.verify_stream(stream)).ok
            assert len(await store.read_stream(stream)) == 3


@pytest.mark.parametrize("function", [0, 1, 2], ids=["0026", "0021", "0009"])
async def test_every_release_s_append_writes_the_match_id(
    database_at_0025: str, function: int
) -> None:
    upgrade(database_at_0025)
    async with open_pool(database_at_0025) as pool:
        store = PostgresEventStore(pool, wake_match_streams=False)
        store._append = function  # a server of the release before 0026 (or before 0021)
        await fill(store)
        assert store._append == function, "the function this release's server calls was there"
        for stream in STREAMS:
            assert (await store.verify_stream(stream)).ok
    for table in TABLES[:5]:
        assert match_ids(database_at_0025, table) == expected(STREAMS), table


async def test_an_append_naming_another_match_than_its_streams_is_refused(
    pg_store: PostgresEventStore, fresh_database_url: str
) -> None:
    stream = f"match-{MATCH}"
    params = list(append_params(stream, [event(n=1)], 0, GENESIS, None))
    params[0] = uuid.uuid4()
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as connection:
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            await connection.execute(APPEND, tuple(params))
    assert await pg_store.stream_version(stream) == 0


def test_the_app_role_s_rows_written_without_the_match_id_get_it(database_url: str) -> None:
    # As a server of the release before 0026 saves a snapshot and claims an idle match.
    stream = f"fairness-{MATCH}"
    with psycopg.connect(as_app(database_url), autocommit=True) as connection:
        connection.execute(
            "INSERT INTO snapshots (stream_id, version, state_type, data) "
            "VALUES (%s, 1, 'state', '{}')",
            (stream,),
        )
        connection.execute(
            "INSERT INTO match_abandon_claims (stream_id, lease_until) VALUES (%s, now())",
            (stream,),
        )
    for table in ("snapshots", "match_abandon_claims"):
        assert match_ids(database_url, table)[stream] == uuid.UUID(MATCH)


@pytest.mark.parametrize("upgraded", [False, True], ids=["before-0026", "after-0026"])
async def test_a_database_is_served_alike_before_and_after_0026(
    database_at_0025: str, upgraded: bool
) -> None:
    fill_before_0026(database_at_0025)
    if upgraded:
        upgrade(database_at_0025)
    later = datetime(2031, 1, 1, tzinfo=UTC)
    async with open_pool(database_at_0025) as pool:
        store = PostgresEventStore(pool, wake_match_streams=False)
        for stream in STREAMS:
            assert [e.version for e in await store.read_stream(stream)] == [1, 2, 3]
            assert (await store.verify_stream(stream)).ok
            await store.append(stream, [event(n=4)], expected_version=3, idempotency_key=stream)
            await store.save_snapshot(stream, 4, "state", b"[]")
            snapshot = await store.load_snapshot(stream)
            assert snapshot is not None
            assert (snapshot.version, snapshot.data) == (4, b"[]")
        found = await store.find_idempotent(STREAMS[0])
        assert found is not None
        assert found.result.last_version == 4
        in_log = await store.read_streams_in_log(STREAMS[:3])
        assert {e.stream_id for e in in_log} == set(STREAMS[:3])
        assert store._by_match is upgraded
        due = await PostgresDeadlines(pool).claim_due(later, limit=10, lease_seconds=1)
        idle = await PostgresIdleMatches(pool).claim_idle(later, later, limit=10, lease_seconds=1)
    assert sorted(due) == sorted(STREAMS)
    assert sorted(m.stream_id for m in idle) == sorted(
        s for s in STREAMS if s.startswith(("match-", "format-match-"))
    )
