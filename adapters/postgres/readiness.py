"""Whether this process can serve: its database answers, at the schema its code expects."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import psycopg

from adapters.postgres.event_store import Pool
from adapters.postgres.migrate import heads
from service.errors import DatabaseUnavailable


@dataclass(frozen=True)
class DatabaseHealth:
    reachable: bool
    migrated: bool  # no migration pending (false too when the database cannot be asked)


def readiness_probe(pool: Pool) -> Callable[[], Awaitable[DatabaseHealth]]:
    """A probe for ``GET /health/ready``; reads the migrations' heads once, now."""
    expected = heads()

    async def probe() -> DatabaseHealth:
        try:
            async with pool.connection() as connection:
                cursor = await connection.execute("SELECT version_num FROM alembic_version")
                applied = {row[0] for row in await cursor.fetchall()}
        except DatabaseUnavailable:
            return DatabaseHealth(reachable=False, migrated=False)
        except psycopg.errors.UndefinedTable:  # never migrated at all
            return DatabaseHealth(reachable=True, migrated=False)
        return DatabaseHealth(reachable=True, migrated=applied == expected)

    return probe
