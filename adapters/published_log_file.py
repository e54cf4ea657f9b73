"""The published log checkpoint in a folder of its own, beside the signing key (outside the
database): ``last.json``, replaced atomically (written aside, then renamed), and
``acceptances.jsonl``, one operator decision a line, only ever appended to. Several workers
publish into one folder: a lock file keeps "replace only with a larger one" whole."""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from adapters.postgres.database_identity import database_identity
from adapters.postgres.event_store import Pool
from service.ports.published_log import Acceptance, Published

LAST = "last.json"
ACCEPTANCES = "acceptances.jsonl"


class FilePublishedLog:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    async def last(self) -> Published | None:
        return await asyncio.to_thread(self._read_last)

    async def publish(self, published: Published) -> None:
        await asyncio.to_thread(self._publish, published)

    async def accept(self, acceptance: Acceptance) -> None:
        await asyncio.to_thread(self._accept, acceptance)

    async def acceptances(self) -> list[Acceptance]:
        path = self.folder / ACCEPTANCES
        if not path.exists():
            return []
        lines = path.read_bytes().splitlines()
        return [msgspec.json.decode(line, type=Acceptance) for line in lines if line]

    def _read_last(self) -> Published | None:
        try:
            return msgspec.json.decode((self.folder / LAST).read_bytes(), type=Published)
        except FileNotFoundError:
            return None

    def _publish(self, published: Published) -> None:
        with self._locked():
            last = self._read_last()
            if last is not None and last.size >= published.size:
                return
            aside = self.folder / f"{LAST}.{os.getpid()}"
            aside.write_bytes(msgspec.json.encode(published))
            os.replace(aside, self.folder / LAST)

    def _accept(self, acceptance: Acceptance) -> None:
        with self._locked():
            with (self.folder / ACCEPTANCES).open("ab") as out:
                out.write(msgspec.json.encode(acceptance) + b"\n")
                out.flush()
                os.fsync(out.fileno())
            (self.folder / LAST).unlink(missing_ok=True)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with (self.folder / ".lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield


class DatabasePublishedLog:
    """A ``FilePublishedLog`` in ``base/<database identity>``, the identity asked of the
    database on first use (the service may start while the database is away)."""

    def __init__(self, base: Path, identify: Callable[[], Awaitable[str]]) -> None:
        self.base = base
        self.identify = identify
        self._log: FilePublishedLog | None = None

    async def _file(self) -> FilePublishedLog:
        if self._log is None:
            self._log = FilePublishedLog(self.base / await self.identify())
        return self._log

    async def last(self) -> Published | None:
        return await (await self._file()).last()

    async def publish(self, published: Published) -> None:
        await (await self._file()).publish(published)

    async def accept(self, acceptance: Acceptance) -> None:
        await (await self._file()).accept(acceptance)

    async def acceptances(self) -> list[Acceptance]:
        return await (await self._file()).acceptances()


def published_log(folder: Path, pool: Pool) -> DatabasePublishedLog:
    """Checkpoints given out, kept in ``folder``, one folder in it per database."""
    return DatabasePublishedLog(folder, lambda: database_identity(pool))
