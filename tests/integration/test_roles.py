"""Least privilege: connected as the application role, the service cannot undo the event
store's protections, and it is warned when it connects with more power than that."""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Iterator

import psycopg
import pytest
from litestar.testing import AsyncTestClient

from adapters.postgres.database import create_database, open_database, with_database
from adapters.postgres.roles import APP_ROLE, OWNER_ROLE, with_login
from tests.app_login import as_app
from tests.conftest import MakeDatabase
from web.app import create_app
from web.settings import Settings

# The hash each event is given is the caller's to compute; the role's test needs none right.
APPEND = (
    "SELECT outcome FROM append_events('match-x', 0, decode(repeat('00', 32), 'hex'), "
    "ARRAY['created'], ARRAY[1], ARRAY['{}'::bytea], ARRAY['\\x01'::bytea], NULL, NULL)"
)

REFUSED = [
    "ALTER TABLE events DISABLE TRIGGER events_append_only",
    "ALTER TABLE events DISABLE TRIGGER ALL",
    "UPDATE events SET data = '{}'",
    "DELETE FROM events",
    "TRUNCATE events",
    "DROP TABLE events",
    "DROP TRIGGER events_append_only ON events",
    "UPDATE streams SET version = 1",
    "INSERT INTO streams (stream_id, version, last_hash) VALUES ('match-y', 0, '')",
    "DELETE FROM streams",
    "INSERT INTO events (stream_id, version, type, schema_version, data, hash) "
    "VALUES ('match-x', 2, 'x', 1, '{}', '')",
    "DELETE FROM idempotency_keys",
    "UPDATE operator_keys SET revoked_at = NULL",
    "INSERT INTO operators (operator_id, name) VALUES (gen_random_uuid(), 'x')",
    "UPDATE matches SET server_secret = server_secret",
    "UPDATE match_seats SET bot = 'random'",
    "DELETE FROM matches",
    "CREATE TABLE events_copy (x int)",
    "CREATE FUNCTION sha256(bytea) RETURNS bytea LANGUAGE sql AS 'SELECT $1'",
    "CREATE OR REPLACE FUNCTION append_events(p_stream_id text, p_expected_version bigint, "
    "p_types text[], p_schema_versions integer[], p_data bytea[], p_idempotency_key text, "
    "p_fingerprint bytea, OUT outcome text, OUT current_version bigint, "
    "OUT first_version bigint, OUT last_version bigint, OUT positions bigint[]) "
    "LANGUAGE sql AS $$ SELECT 'appended', 0::bigint, 0::bigint, 0::bigint, '{}'::bigint[] $$",
    f"SET ROLE {OWNER_ROLE}",
    "ALTER FUNCTION refuse_event_change() RENAME TO anything",
]


@pytest.fixture(scope="module")
def app_connection(database_url: str) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with psycopg.connect(as_app(database_url), autocommit=True) as connection:
        # Something to refuse to change.
        assert connection.execute(APPEND).fetchone() == ("appended",)
        yield connection


@pytest.mark.parametrize("statement", REFUSED)
def test_the_application_role_cannot(
    app_connection: psycopg.Connection[tuple[object, ...]], statement: str
) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app_connection.execute(statement)


def test_nothing_the_application_role_tried_changed_anything(
    app_connection: psycopg.Connection[tuple[object, ...]], database_url: str
) -> None:
    for statement in REFUSED:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app_connection.execute(statement)
    with psycopg.connect(database_url) as owner:
        events = owner.execute(
            "SELECT stream_id, version, type FROM events WHERE stream_id = 'match-x'"
        ).fetchall()
        head = owner.execute(
            "SELECT stream_id, version FROM streams WHERE stream_id = 'match-x'"
        ).fetchall()
        trigger = owner.execute(
            "SELECT tgenabled FROM pg_trigger WHERE tgname = 'events_append_only'"
        ).fetchone()
    assert events == [("match-x", 1, "created")]
    assert head == [("match-x", 1)]
    assert trigger == ("O",)  # enabled


def test_the_application_role_appends_through_the_function_and_reads(
    app_connection: psycopg.Connection[tuple[object, ...]],
) -> None:
    # Chained to the head the first append left: the hash it was given.
    second = APPEND.replace(
        "'match-x', 0, decode(repeat('00', 32), 'hex')", "'match-x', 1, '\\x01'"
    )
    appended = app_connection.execute(second).fetchone()
    assert appended == ("appended",)
    assert app_connection.execute(
        "SELECT version FROM streams WHERE stream_id = 'match-x'"
    ).fetchone() == (2,)
    assert app_connection.execute(
        "SELECT count(*) FROM events WHERE stream_id = 'match-x'"
    ).fetchone() == (2,)


def test_a_temporary_table_cannot_stand_in_for_the_stream_heads(
    app_connection: psycopg.Connection[tuple[object, ...]],
) -> None:
    # append_events runs as its owner, on the tables its search_path finds. Temporary tables
    # come first unless pg_temp is named last, and any caller may make one.
    app_connection.execute(
        "CREATE TEMPORARY TABLE streams (stream_id text PRIMARY KEY, version bigint, "
        "last_hash bytea)"
    )
    try:
        app_connection.execute(APPEND.replace("'match-x', 0", "'match-t', 0"))
        taken = app_connection.execute("SELECT count(*) FROM pg_temp.streams").fetchone()
        head = app_connection.execute(
            "SELECT version FROM public.streams WHERE stream_id = 'match-t'"
        ).fetchone()
    finally:
        app_connection.execute("DROP TABLE pg_temp.streams")
    assert taken == (0,)
    assert head == (1,)


def test_every_object_belongs_to_the_owner_and_the_app_is_granted_something(
    database_url: str,
) -> None:
    # A table a later migration adds must be given to gin_owner and granted to gin_app.
    with psycopg.connect(database_url) as owner:
        strays = owner.execute(
            "SELECT c.relname FROM pg_class c "
            "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'S') "
            "AND pg_get_userbyid(c.relowner) <> %s",
            (OWNER_ROLE,),
        ).fetchall()
        ungranted = owner.execute(
            "SELECT c.relname FROM pg_class c "
            "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') "
            "AND NOT has_table_privilege(%s, c.oid, 'SELECT')",
            (APP_ROLE,),
        ).fetchall()
        definer = owner.execute(
            "SELECT prosecdef, proconfig FROM pg_proc WHERE proname = 'append_events'"
        ).fetchall()
    assert strays == []
    assert ungranted == []
    # Three: 0026's by match, and 0021's and 0009's for the releases before it.
    assert definer == [(True, ["search_path=pg_catalog, public, pg_temp"])] * 3


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def database_warnings() -> Iterator[list[str]]:
    handler = Lines()
    logger = logging.getLogger("gin.database")
    logger.addHandler(handler)
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)


async def test_serving_as_a_superuser_is_warned_about_once(
    database_url: str, database_warnings: list[str]
) -> None:
    app = create_app(Settings(database_url=database_url, log_level="WARNING"))
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/health")).status_code == 200
    assert len(database_warnings) == 1
    assert "superuser" in database_warnings[0]
    assert "append-only trigger" in database_warnings[0]


async def test_serving_as_the_application_role_is_not_warned_about(
    database_url: str, database_warnings: list[str]
) -> None:
    app = create_app(Settings(database_url=as_app(database_url), log_level="WARNING"))
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/health")).status_code == 200
    assert database_warnings == []


async def test_serving_as_a_member_of_the_owner_role_is_warned_about(
    database_url: str, database_warnings: list[str]
) -> None:
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(
            "DO $$ BEGIN CREATE ROLE gin_test_owner LOGIN PASSWORD 'gin-test-owner'; "
            "EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
        admin.execute(f"GRANT {OWNER_ROLE} TO gin_test_owner")
    owner_url = with_login(database_url, "gin_test_owner", "gin-test-owner")
    app = create_app(Settings(database_url=owner_url, log_level="WARNING"))
    async with AsyncTestClient(app=app) as client:
        assert (await client.get("/health")).status_code == 200
    assert len(database_warnings) == 1
    assert "the owner of the events table" in database_warnings[0]


_names = itertools.count(1)


@pytest.fixture
def empty_database_url(postgres_server_url: str) -> str:
    name = f"gin_test_{os.getpid()}_roles_{next(_names)}"
    create_database(postgres_server_url, name)
    return with_database(postgres_server_url, name)


def test_an_application_login_cannot_migrate_a_database(empty_database_url: str) -> None:
    with pytest.raises(Exception, match="permission denied"):
        open_database(as_app(empty_database_url))


def test_a_migration_url_migrates_as_the_owner_and_the_service_url_serves(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIN_MIGRATION_DATABASE_URL", empty_database_url)
    database = open_database(as_app(empty_database_url))

    assert database.service_url == as_app(empty_database_url)
    with psycopg.connect(database.service_url) as app:
        assert app.execute("SELECT count(*) FROM events").fetchone() == (0,)


def test_an_application_login_starts_on_a_database_already_migrated(database_url: str) -> None:
    # gin serve migrates on start: with nothing to do it only reads the schema's version.
    database = open_database(as_app(database_url))
    assert database.service_url == as_app(database_url)


def test_a_migrating_login_that_is_no_superuser_migrates_as_the_docs_say(
    postgres_server_url: str, make_database: MakeDatabase
) -> None:
    # docs/operations.md: a CREATEROLE login owning the database, granted gin_owner when
    # another database of the cluster already made it (as the tests' template did: asking
    # for ``make_database`` makes it, so the test holds when it runs alone).
    name = f"gin_test_{os.getpid()}_migrator_{next(_names)}"
    with psycopg.connect(postgres_server_url, autocommit=True) as admin:
        admin.execute(
            "DO $$ BEGIN CREATE ROLE gin_test_migrator LOGIN CREATEROLE "
            "PASSWORD 'gin-test-migrator'; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
        )
        admin.execute(f"GRANT {OWNER_ROLE} TO gin_test_migrator")
        admin.execute(f"CREATE DATABASE {name} OWNER gin_test_migrator")
    url = with_database(postgres_server_url, name)
    migrator = with_login(url, "gin_test_migrator", "gin-test-migrator")

    open_database(migrator)

    with psycopg.connect(url) as owner:
        owners = owner.execute(
            "SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class "
            "WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'"
        ).fetchall()
    assert owners == [(OWNER_ROLE,)]
    with (
        psycopg.connect(as_app(url), autocommit=True) as app,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        app.execute("TRUNCATE events")
