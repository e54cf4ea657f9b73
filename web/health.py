"""Health for operators and orchestrators.

- ``GET /health/live``: the process answers (restart it if not); never touches the database,
  so an outage of the database does not get every server restarted.
- ``GET /health/ready``: send it traffic: the database answers and no migration is pending.
- ``GET /health``: as before, the process and whether it reaches its database.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from litestar import Response, get
from litestar.datastructures import State

from service.errors import DatabaseUnavailable
from web.docs import problems
from web.schemas import Health, Liveness, Readiness

# A probe takes no parameters: one it sends anyway is refused (web/request_contract.py).
UNKNOWN_QUERY = problems(400)


class DatabaseHealth(Protocol):
    @property
    def reachable(self) -> bool: ...
    @property
    def migrated(self) -> bool: ...


Probe = Callable[[], Awaitable[DatabaseHealth]]


@get("/health", tags=["operations"], summary="Health", cache_control=None, responses=UNKNOWN_QUERY)
async def health(state: State) -> Response[Health]:
    try:
        async with state.pool.connection() as conn:
            await conn.execute("SELECT 1")
    except DatabaseUnavailable:
        return Response(Health("unavailable", "unreachable"), status_code=503)
    return Response(Health("ok", "ok"))


@get(
    "/health/live",
    tags=["operations"],
    summary="Liveness",
    cache_control=None,
    responses=UNKNOWN_QUERY,
)
async def live() -> Liveness:
    """200 while the process serves HTTP at all; the database is not asked."""
    return Liveness()


@get(
    "/health/ready",
    tags=["operations"],
    summary="Readiness",
    cache_control=None,
    responses=UNKNOWN_QUERY,
)
async def ready(state: State) -> Response[Readiness]:
    """200 when the database answers and its schema is the newest; 503 otherwise."""
    probe: Probe = state.readiness
    found = await probe()
    if not found.reachable:
        return Response(Readiness("unavailable", "unreachable", None), status_code=503)
    if not found.migrated:
        return Response(Readiness("unavailable", "ok", "pending"), status_code=503)
    return Response(Readiness("ok", "ok", "done"))
