"""The quick-match queue in PostgreSQL: ``quick_match`` (migration 0015) and the pairs whose
match is not made yet, ``quick_match_pairs`` (migration 0019; the waiting players after the
first, at three or four seats, in ``more_waiting``: migration 0025).

An ask takes a transaction-scoped advisory lock on its options key, so the askers of one key
take their turns one after another in every process: each finds the waiting entries as the
previous ask left them. Askers of other keys do not wait for it. One row per player (the
primary key) keeps a player from waiting twice, even for two keys at once. A pairing writes
its pending pair in the same transaction, so no pairing is ever without one; a claim is one
``UPDATE`` whose row locks make two claimers of the same pair take it one after the other,
the second finding it claimed already.
"""

from __future__ import annotations

from datetime import datetime

import psycopg

from adapters.postgres.event_store import Pool
from service.errors import AlreadyQueued
from service.ports.quick_match import Paired, PendingPair, QueueEntry

COLUMNS = "player_id::text, options_key, requested_at, expires_at, match_id::text, seat"

OLDEST_WAITING = """
SELECT player_id::text FROM quick_match
WHERE options_key = %s AND match_id IS NULL AND expires_at > %s AND player_id <> %s
ORDER BY requested_at, player_id LIMIT %s FOR UPDATE
"""

INSERT = """
INSERT INTO quick_match (player_id, options_key, requested_at, expires_at, match_id, seat)
VALUES (%s, %s, %s, %s, %s, %s)
"""

INSERT_PAIR = """
INSERT INTO quick_match_pairs (
    match_id, options_key, waiting_player, more_waiting, asking_player, paired_at, claimed_until
)
VALUES (%s, %s, %s, %s::uuid[], %s, %s, %s)
"""

CLAIM = """
UPDATE quick_match_pairs SET claimed_until = %s
WHERE made_at IS NULL AND claimed_until <= %s AND (%s::uuid IS NULL OR match_id = %s::uuid)
RETURNING match_id::text, options_key, waiting_player::text, more_waiting::text[],
    asking_player::text
"""


class PostgresQuickMatchQueue:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def ask(
        self,
        player_id: str,
        options_key: str,
        *,
        now: datetime,
        expires_at: datetime,
        match_id: str,
        hold_until: datetime,
        seats: int = 2,
    ) -> Paired | None:
        try:
            async with self._pool.connection() as conn, conn.transaction():
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                    (f"quick-match:{options_key}",),
                )
                cur = await conn.execute(
                    "DELETE FROM quick_match WHERE player_id = %s "
                    "RETURNING match_id IS NULL AND expires_at > %s",
                    (player_id, now),
                )
                mine = await cur.fetchone()
                if mine is not None and mine[0]:
                    raise AlreadyQueued("this player is already waiting for a quick match")
                cur = await conn.execute(OLDEST_WAITING, (options_key, now, player_id, seats - 1))
                waiting = [row[0] for row in await cur.fetchall()]
                if len(waiting) < seats - 1:
                    await conn.execute(
                        INSERT, (player_id, options_key, now, expires_at, None, None)
                    )
                    return None
                for seat, waiting_id in enumerate(waiting):
                    await conn.execute(
                        "UPDATE quick_match SET match_id = %s, seat = %s WHERE player_id = %s",
                        (match_id, seat, waiting_id),
                    )
                await conn.execute(
                    INSERT, (player_id, options_key, now, expires_at, match_id, len(waiting))
                )
                await conn.execute(
                    INSERT_PAIR,
                    (
                        match_id,
                        options_key,
                        waiting[0],
                        waiting[1:],
                        player_id,
                        now,
                        hold_until,
                    ),
                )
                return Paired(match_id, waiting)
        except psycopg.errors.UniqueViolation:
            # The same player asking for two keys at once: the other ask queued them first.
            raise AlreadyQueued("this player is already waiting for a quick match") from None

    async def entry(self, player_id: str) -> QueueEntry | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT {COLUMNS} FROM quick_match WHERE player_id = %s", (player_id,)
            )
            row = await cur.fetchone()
        if row is None:
            return None
        player, key, requested_at, expires_at, match_id, seat = row
        return QueueEntry(
            player_id=player,
            options_key=key,
            requested_at=requested_at,
            expires_at=expires_at,
            match_id=match_id,
            seat=seat,
        )

    async def cancel(self, player_id: str, *, now: datetime) -> bool:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "DELETE FROM quick_match WHERE player_id = %s AND match_id IS NULL "
                "AND expires_at > %s",
                (player_id, now),
            )
            return cur.rowcount == 1

    async def claim_pending(
        self, *, now: datetime, hold_until: datetime, match_id: str | None = None
    ) -> list[PendingPair]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(CLAIM, (hold_until, now, match_id, match_id))
            rows = await cur.fetchall()
        return [
            PendingPair(match_id=match, options_key=key, waiting_ids=[first, *more], asker_id=asker)
            for match, key, first, more, asker in rows
        ]

    async def made(self, match_id: str, *, now: datetime) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "UPDATE quick_match_pairs SET made_at = %s WHERE match_id = %s", (now, match_id)
            )
