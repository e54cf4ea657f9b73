"""``GET /health``: is this process up, and does it reach its database?"""

from __future__ import annotations

import psycopg
from litestar import Response, get
from litestar.datastructures import State
from psycopg_pool import PoolTimeout

from web.schemas import Health


@get("/health", tags=["operations"], summary="Health", cache_control=None)
async def health(state: State) -> Response[Health]:
    try:
        async with state.pool.connection(timeout=2) as conn:
            await conn.execute("SELECT 1")
    except (psycopg.Error, PoolTimeout, OSError):
        return Response(Health("unavailable", "unreachable"), status_code=503)
    return Response(Health("ok", "ok"))
