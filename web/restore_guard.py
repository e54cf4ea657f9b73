"""The app's side of the check after a restore (``service/audit/restore_check.py``): where the
published checkpoint is kept (a folder beside the signing key), the check run in the
background when the server starts, and every request that writes refused while it says so.

Reads (``GET``, ``HEAD``, ``OPTIONS``) are always served: a player can still see the match as
the restored log has it, and an auditor can still fetch what is left."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Request

from service.audit.restore_check import RestoreGuard
from service.errors import DatabaseUnavailable

READS = frozenset({"GET", "HEAD", "OPTIONS"})
RETRY_SECONDS = 1.0

_log = logging.getLogger("gin.restore")


@asynccontextmanager
async def checking_restore(guard: RestoreGuard) -> AsyncIterator[None]:
    """The log checked against the last published checkpoint once the database answers."""

    async def check() -> None:
        while True:
            try:
                missing = await guard.check()
            except DatabaseUnavailable:
                await asyncio.sleep(RETRY_SECONDS)
                continue
            except Exception as error:  # e.g. a schema still to migrate: writes keep waiting
                _log.warning("checking the log against the last checkpoint failed: %s", error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if missing is not None:
                _log.error("refusing writes: %s (gin db accept-restore)", missing.detail())
            return

    task = asyncio.create_task(check())
    try:
        yield
    finally:
        task.cancel()


async def refuse_writes_after_restore(request: Request[Any, Any, Any]) -> None:
    if request.method in READS:
        return
    guard: RestoreGuard | None = getattr(request.app.state, "restore_guard", None)
    if guard is not None:
        await guard.refuse_writes()
