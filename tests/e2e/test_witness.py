"""``gin witness`` against a real ``gin serve``: it keeps each log checkpoint that extends the
last, and when the database is restored from an older backup it reports the rollback (the
log shrank) and then, once the restored log has grown past what it kept, the fork (the same
signing key signs a log that does not begin with the one it signed before), with exit
status 1 and both signed notes kept as evidence."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest

from adapters.postgres.database import create_database, with_database
from bench.servers import gin_serve
from service.audit.log_checkpoints import parse_log_checkpoint
from service.audit.notes import parse_note
from tests.log_checkpoints import checkpoint_covering

ROOT = Path(__file__).resolve().parents[2]


def witness(url: str, keep: Path, key: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cli.main", "witness", url, "--keep", str(keep)]
    command += ["--public-key", str(key), "--once"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def create_matches(url: str, database_url: str, count: int) -> int:
    """``count`` new matches (each a few events); the log's size after them, once the server's
    checkpoint covers every event committed."""
    with httpx.Client(base_url=url, timeout=30) as http:
        for _ in range(count):
            body = {"players": 2, "options": {"match_target": 0}}
            assert http.post("/matches", json=body).status_code == 201
        with psycopg.connect(database_url) as connection:
            row = connection.execute("SELECT count(*) FROM events").fetchone()
    assert row is not None

    async def covered() -> int:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            return await checkpoint_covering(http, row[0])

    return asyncio.run(covered())


def kept_size(keep: Path) -> int:
    return parse_log_checkpoint(parse_note((keep / "latest.note").read_text()).text)[0]


@pytest.mark.slow
def test_a_restored_older_database_is_reported_as_a_rollback_then_a_fork(
    postgres_server_url: str, fresh_database_url: str, tmp_path: Path
) -> None:
    signing = {"GIN_SIGNING_KEY_FILE": str(tmp_path / "signing-key.pem")}
    keep, key = tmp_path / "witness", tmp_path / "verifier-key"
    with gin_serve(fresh_database_url, env=signing) as server:
        key.write_text(httpx.get(f"{server.url}/checkpoints/key").text)
        backed_up = create_matches(server.url, fresh_database_url, 3)
        first = witness(server.url, keep, key)
        assert first.returncode == 0, first.stdout + first.stderr
        assert kept_size(keep) == backed_up
    # The backup: the database as it was then, copied while nothing uses it.
    live = urlsplit(fresh_database_url).path.lstrip("/")
    create_database(postgres_server_url, f"{live}_backup", template=live)
    backup_url = with_database(fresh_database_url, f"{live}_backup")

    with gin_serve(fresh_database_url, env=signing) as server:
        grown = create_matches(server.url, fresh_database_url, 3)
        again = witness(server.url, keep, key)
        assert again.returncode == 0, again.stdout + again.stderr
        assert f"consistent with the last ({backed_up})" in again.stdout
        assert kept_size(keep) == grown > backed_up
        same = witness(server.url, keep, key)
        assert same.returncode == 0, same.stdout + same.stderr
        assert sorted(p.name for p in (keep / "checkpoints").iterdir()) == sorted(
            f"{size}.note" for size in {backed_up, grown}
        )

    with gin_serve(backup_url, env=signing) as restored:
        rolled_back = witness(restored.url, keep, key)
        assert rolled_back.returncode == 1, rolled_back.stdout + rolled_back.stderr
        assert "ROLLBACK" in rolled_back.stderr
        assert f"{grown - backed_up} events it covered are gone" in rolled_back.stderr
        assert kept_size(keep) == grown

        forked_size = create_matches(restored.url, backup_url, 6)
        assert forked_size > grown
        forked = witness(restored.url, keep, key)
        assert forked.returncode == 1, forked.stdout + forked.stderr
        assert "FORK" in forked.stderr
        assert kept_size(keep) == grown

    evidence = sorted((keep / "evidence").iterdir())
    assert [path.name.rsplit("-", 1)[1] for path in evidence] == ["rollback", "fork"]
    for folder in evidence:
        assert kept_size(folder.parent.parent) == grown
        assert (folder / "kept.note").read_text() == (keep / "latest.note").read_text()
        assert parse_note((folder / "served.note").read_text()).signatures


def test_a_checkpoint_signed_by_another_key_is_refused(
    fresh_database_url: str, tmp_path: Path
) -> None:
    keep, key = tmp_path / "witness", tmp_path / "verifier-key"
    with gin_serve(fresh_database_url, env={"GIN_SIGNING_KEY_FILE": str(tmp_path / "a.pem")}) as a:
        key.write_text(httpx.get(f"{a.url}/checkpoints/key").text)
    with gin_serve(fresh_database_url, env={"GIN_SIGNING_KEY_FILE": str(tmp_path / "b.pem")}) as b:
        refused = witness(b.url, keep, key)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "no valid signature by any of the public keys" in refused.stderr
    assert not (keep / "latest.note").exists()
