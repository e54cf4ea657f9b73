"""The schema exists only through the Alembic migrations, applied by ``gin db upgrade``."""

from __future__ import annotations

import itertools
import os

import psycopg
import pytest
from alembic.script import ScriptDirectory

from adapters.postgres.database import create_database, with_database
from adapters.postgres.migrate import alembic_config, downgrade, upgrade
from cli.main import main

_names = itertools.count(1)

EVENT_STORE_TABLES = ["events", "idempotency_keys", "snapshots", "streams"]


@pytest.fixture
def empty_database_url(postgres_server_url: str) -> str:
    name = f"gin_test_{os.getpid()}_empty_{next(_names)}"
    create_database(postgres_server_url, name)
    return with_database(postgres_server_url, name)


def tables(url: str) -> list[str]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        ).fetchall()
    return [name for (name,) in rows]


def head() -> str:
    newest = ScriptDirectory.from_config(alembic_config("postgresql://")).get_current_head()
    assert newest is not None
    return newest


def revision(url: str) -> str:
    with psycopg.connect(url) as connection:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert row is not None
    return str(row[0])


def test_gin_db_upgrade_creates_the_schema_on_an_empty_database(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tables(empty_database_url) == []

    assert main(["db", "upgrade", "--database-url", empty_database_url]) == 0

    assert "newest schema" in capsys.readouterr().out
    assert set(EVENT_STORE_TABLES) <= set(tables(empty_database_url))
    assert revision(empty_database_url) == head()


def test_upgrading_twice_changes_nothing(empty_database_url: str) -> None:
    upgrade(empty_database_url)
    upgrade(empty_database_url)

    assert revision(empty_database_url) == head()


def test_the_migrations_run_down_and_up_again(empty_database_url: str) -> None:
    upgrade(empty_database_url)

    downgrade(empty_database_url, "base")
    assert tables(empty_database_url) == ["alembic_version"]

    upgrade(empty_database_url)
    assert set(EVENT_STORE_TABLES) <= set(tables(empty_database_url))
