"""With no database URL the service runs an embedded PostgreSQL whose data survives restarts;
with one it starts nothing."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from adapters.postgres.database import open_database
from adapters.postgres.event_store import PostgresEventStore
from adapters.postgres.roles import SERVICE_LOGIN, privilege_warning
from service.ports.event_store import NewEvent


@pytest.fixture
def no_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("GIN_DATABASE_URL", raising=False)


@pytest.mark.postgres  # starts an embedded server of its own, in tmp_path
@pytest.mark.usefixtures("no_database_url")
async def test_the_embedded_server_keeps_events_across_restarts(tmp_path: Path) -> None:
    first_run = open_database(data_dir=tmp_path)
    try:
        assert first_run.embedded is not None
        assert (tmp_path / "postgres" / "PG_VERSION").exists()
        # The service's login is not the superuser that migrated.
        async with await psycopg.AsyncConnection.connect(first_run.service_url) as connection:
            who = await (await connection.execute("SELECT current_user")).fetchone()
            assert who == (SERVICE_LOGIN,)
            assert await privilege_warning(connection) is None
        async with PostgresEventStore.connect(first_run.service_url) as store:
            await store.append("match-1", [NewEvent("E", 1, b'{"n":1}')], expected_version=0)
    finally:
        first_run.close()

    second_run = open_database(data_dir=tmp_path)
    try:
        async with PostgresEventStore.connect(second_run.service_url) as store:
            (kept,) = await store.read_stream("match-1")
            assert kept.data == b'{"n":1}'
            assert (await store.verify_stream("match-1")).ok
    finally:
        second_run.close()


def test_a_database_url_is_used_as_given_and_nothing_is_started(
    database_url: str, tmp_path: Path
) -> None:
    database = open_database(database_url, data_dir=tmp_path)

    assert database.embedded is None
    assert database.url == database_url
    assert database.service_url == database_url
    assert not (tmp_path / "postgres").exists()
    database.close()
