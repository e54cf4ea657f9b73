"""Database fixtures: every test that stores anything gets a real PostgreSQL, never a mock.

The server, in this order: ``TEST_DATABASE_URL`` (a postgresql:// URL to a role that may
create databases); else testcontainers' PostgreSQL if a Docker engine answers; else an
embedded server in a temporary folder. The migrations run once, into a template database;
each module (``database_url``) or test (``fresh_database_url``, ``pg_store``) gets a copy of
it, which takes a few tens of milliseconds.

Those URLs are the owner's (the server's superuser), for setting up and tampering. An app under
test connects as ``as_app(url)``: the login ``gin_test_app``, granted only the application
role ``gin_app``, as the service runs in production.

Each test is marked with what it needs (``pytest_collection_modifyitems`` below): ``postgres``,
``browser`` or ``e2e`` (``gin serve`` processes). ``python3 dev.py test --fast`` runs the tests
that need none of them.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import psycopg
import pytest
from hypothesis import HealthCheck, Phase, settings

from adapters.postgres.database import create_database, drop_database, with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.event_store import PostgresEventStore
from adapters.postgres.migrate import upgrade
from adapters.postgres.roles import ensure_login
from tests.app_login import TEST_APP_LOGIN, TEST_APP_PASSWORD
from tests.module_order import longest_first

MakeDatabase = Callable[[], str]

# Property tests count examples, not time: a busy two-core CI machine must not fail them.
settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Mutation testing (`dev.py mutate`) compares runs of the same tests against each mutant: the
# examples must be the same every time, or a survivor could be a matter of luck.
# It runs a quarter of each property test's examples (tests/unit/helpers.py examples()), and
# does not shrink a failing example: a mutant needs one failure, not the smallest.
settings.register_profile(
    "mutation",
    parent=settings.get_profile("project"),
    derandomize=True,
    database=None,
    max_examples=25,
    phases=[Phase.explicit, Phase.generate],
)
# The everyday loop (`dev.py test --fast`) tries a tenth of each property test's examples (those
# that count them through tests/unit/helpers.py examples()); the whole suite tries them all.
settings.register_profile("fast", parent=settings.get_profile("project"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "project"))


# What a test needs, read from the fixtures it uses: nobody has to remember to mark a test, and a
# module may hold tests of each kind (a service test on the in-memory adapters beside its API
# test). A fixture parametrised over adapters names its PostgreSQL one "postgres".
POSTGRES_FIXTURES = {"postgres_server_url", "outage"}
BROWSER_FIXTURES = {"browser"}
E2E_FOLDER = Path(__file__).parent / "e2e"
# Set by `dev.py test --fast`: a test that reaches PostgreSQL there was not marked as needing it.
NO_POSTGRES = "GIN_TEST_NO_POSTGRES"


def needs(item: pytest.Item) -> set[str]:
    """The markers ``item`` gets: ``postgres``, ``browser``, ``e2e``."""
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    found = set()
    if fixtures & POSTGRES_FIXTURES or any(value == "postgres" for value in params):
        found.add("postgres")
    if fixtures & BROWSER_FIXTURES:
        found.add("browser")
    if item.path.is_relative_to(E2E_FOLDER):
        found.add("e2e")
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    longest_first(items)
    for item in items:
        for name in sorted(needs(item)):
            item.add_marker(name)


def refuse_without_postgres() -> None:
    """In the fast loop, a test that reaches PostgreSQL by a way ``needs`` cannot see fails,
    rather than quietly starting a server: mark it ``@pytest.mark.postgres``."""
    if os.environ.get(NO_POSTGRES):
        pytest.fail(
            f"this test needs PostgreSQL but is not marked so ({NO_POSTGRES} is set): "
            "mark it @pytest.mark.postgres, or name its adapter parameter 'postgres'",
            pytrace=False,
        )


def _docker_answers() -> bool:
    try:
        import docker  # type: ignore[import-untyped]

        docker.from_env(timeout=3).ping()
    except Exception:
        return False
    return True


def _skip_durability(url: str) -> None:
    # A throwaway server need not survive a power cut; not syncing to disk makes creating a
    # database per test, and the final shutdown, several times faster.
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("ALTER SYSTEM SET fsync = off")
        connection.execute("ALTER SYSTEM SET synchronous_commit = off")
        connection.execute("ALTER SYSTEM SET full_page_writes = off")
        connection.execute("SELECT pg_reload_conf()")


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """A URL to the server's maintenance database, for creating and dropping databases."""
    refuse_without_postgres()
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
    elif _docker_answers():
        from testcontainers.community.postgres import PostgresContainer

        with PostgresContainer("postgres:17", driver=None) as container:
            yield container.get_connection_url()
    else:
        server = EmbeddedPostgres(
            Path(tempfile.mkdtemp(prefix="gin-test-pg-")), delete_on_stop=True
        )
        try:
            _skip_durability(server.url())
            yield server.url()
        finally:
            server.stop()


@pytest.fixture(scope="session")
def make_database(postgres_server_url: str) -> Iterator[MakeDatabase]:
    """A factory of fresh, migrated databases.

    On a server of its own (a container, an embedded one) the session throws the whole server
    away; on ``TEST_DATABASE_URL`` it drops what it created.
    """
    prefix = f"gin_test_{os.getpid()}"
    template = f"{prefix}_template"
    create_database(postgres_server_url, template)
    upgrade(with_database(postgres_server_url, template))
    ensure_login(postgres_server_url, TEST_APP_LOGIN, password=TEST_APP_PASSWORD)
    created: list[str] = []
    counter = itertools.count(1)

    def make() -> str:
        name = f"{prefix}_{next(counter)}"
        create_database(postgres_server_url, name, template=template)
        created.append(name)
        return with_database(postgres_server_url, name)

    yield make
    if os.environ.get("TEST_DATABASE_URL"):
        for name in [*created, template]:
            drop_database(postgres_server_url, name)


def _dropped_after(postgres_server_url: str, url: str) -> Iterator[str]:
    # A run creates hundreds of databases: dropping each when its tests are done keeps the
    # server's folder small (it may live in memory: dev.py's scratch folder).
    yield url
    drop_database(postgres_server_url, unquote(urlsplit(url).path.lstrip("/")))


@pytest.fixture(scope="module")
def database_url(postgres_server_url: str, make_database: MakeDatabase) -> Iterator[str]:
    """A fresh migrated database shared by the tests of one module."""
    yield from _dropped_after(postgres_server_url, make_database())


@pytest.fixture
def fresh_database_url(postgres_server_url: str, make_database: MakeDatabase) -> Iterator[str]:
    """A fresh migrated database for one test."""
    yield from _dropped_after(postgres_server_url, make_database())


@pytest.fixture
async def pg_store(fresh_database_url: str) -> AsyncIterator[PostgresEventStore]:
    """A ``PostgresEventStore`` on an empty database, with room for 20 concurrent writers."""
    async with PostgresEventStore.connect(fresh_database_url, max_size=20) as store:
        yield store
