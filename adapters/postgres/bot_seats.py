"""The matches with a bot seat, from ``match_seats`` (one partial index, ``match_seats_bots``)."""

from __future__ import annotations

from adapters.postgres.event_store import Pool

MATCHES_WITH_BOTS = "SELECT DISTINCT match_id::text FROM match_seats WHERE bot IS NOT NULL"


class PostgresBotSeats:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def matches_with_bots(self) -> set[str]:
        async with self._pool.connection() as conn:
            rows = await (await conn.execute(MATCHES_WITH_BOTS)).fetchall()
        return {row[0] for row in rows}
