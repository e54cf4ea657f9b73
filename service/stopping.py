"""Stopping a process's background tasks within a bound, so a server always shuts down."""

from __future__ import annotations

import asyncio
import logging

_log = logging.getLogger("gin.stopping")
# Long enough for a task to finish the statement it is in; a task still running after it is
# left behind (and logged) rather than holding the process's shutdown.
GRACE_SECONDS = 5.0


async def stop_tasks(*tasks: asyncio.Task[None], grace: float = GRACE_SECONDS) -> None:
    """Cancel ``tasks`` and wait at most ``grace`` seconds for them to end."""
    for task in tasks:
        task.cancel()
    _, pending = await asyncio.wait(tasks, timeout=grace)
    for task in pending:
        _log.warning("a background task did not stop in time", extra={"task": task.get_name()})
