"""Players in PostgreSQL: ``players``, ``player_tokens``, ``player_matches``,
``player_notices`` and the projector's cursor ``player_projection`` (migration 0010).

Notices are numbered with ``UPDATE players SET inbox_seq = inbox_seq + 1``: the row lock holds
until commit, so one player's notices commit in the order of their numbers, with no gaps. The
inboxes written to are woken after the commit, never inside it (see ``wakeup_sender``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg import AsyncConnection

from adapters.postgres.event_store import Pool
from adapters.postgres.wakeup_sender import WakeupSender
from adapters.postgres.webhook_dispatch import insert_deliveries
from service.ports.players import (
    DuplicatePlayer,
    NewNotice,
    Notice,
    Player,
    PlayerMatch,
    PlayerSeat,
    RelayHook,
    inbox_wakeup,
)
from service.ports.webhook_dispatch import NewDelivery

PLAYER = "SELECT player_id::text, display_name, created_at FROM players"

SEAT_OF = """
SELECT s.seat FROM match_seats s JOIN player_tokens t USING (token_hash)
WHERE s.match_id = %s AND t.player_id = %s
"""

NAMES = """
SELECT s.seat, p.display_name
FROM match_seats s JOIN player_tokens t USING (token_hash) JOIN players p USING (player_id)
WHERE s.match_id = %s
"""

MATCH_COLUMNS = "player_id::text, match_id::text, seat, status, turn, version, position, deadline"

# The player of a credential and a page of their list in one round trip: a player with no
# matches is one row of NULLs, an unknown credential no row.
MATCHES_OF_CREDENTIAL = """
SELECT p.player_id::text, m.match_id::text, m.seat, m.status, m.turn, m.version, m.position,
    m.deadline
FROM players p LEFT JOIN LATERAL (
    SELECT * FROM player_matches l
    WHERE l.player_id = p.player_id AND l.position < %s ORDER BY l.position DESC LIMIT %s
) m ON true
WHERE p.credential_hash = %s
ORDER BY m.position DESC
"""

MATCHES_OF_PLAYER = f"""
SELECT {MATCH_COLUMNS} FROM player_matches
WHERE player_id = %s AND position < %s ORDER BY position DESC LIMIT %s
"""

NEXT_SEQ = "UPDATE players SET inbox_seq = inbox_seq + 1 WHERE player_id = %s RETURNING inbox_seq"

INSERT_NOTICE = """
INSERT INTO player_notices (player_id, seq, kind, match_id, payload) VALUES (%s, %s, %s, %s, %s)
"""

SEATS = """
SELECT s.match_id::text, s.seat, t.player_id::text
FROM match_seats s JOIN player_tokens t USING (token_hash)
WHERE s.match_id = ANY(%s::uuid[])
"""

UPSERT_MATCH = """
INSERT INTO player_matches
    (player_id, match_id, seat, status, turn, version, position, deadline)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (player_id, match_id) DO UPDATE SET status = excluded.status,
    turn = excluded.turn, version = excluded.version, position = excluded.position,
    deadline = excluded.deadline
"""

# Any operator's: subscribing to a player's kinds takes the scope players:relay.
RELAY_HOOKS = """
SELECT webhook_id::text, events FROM webhooks
WHERE deleted_at IS NULL AND events && ARRAY['player_your_turn', 'player_match_ended']
"""


class PostgresPlayers:
    def __init__(self, pool: Pool, *, wake_here: Callable[[str], None] | None = None) -> None:
        """``wake_here`` wakes this process's inbox readers at once; other processes hear of
        notices by ``NOTIFY``, a round trip later."""
        self._pool = pool
        self._wake_here = wake_here
        if not isinstance(pool.conninfo, str):
            raise TypeError("the pool's conninfo must be a string to send wake-ups")
        self._wakeups = WakeupSender(pool.conninfo)

    async def close(self) -> None:
        await self._wakeups.close()

    async def create(self, player_id: str, display_name: str, credential_hash: bytes) -> Player:
        try:
            async with self._pool.connection() as conn:
                cur = await conn.execute(
                    "INSERT INTO players (player_id, display_name, credential_hash) "
                    "VALUES (%s, %s, %s) RETURNING created_at",
                    (player_id, display_name, credential_hash),
                )
                row = await cur.fetchone()
        except psycopg.errors.UniqueViolation:
            raise DuplicatePlayer(player_id) from None
        assert row is not None
        return Player(player_id, display_name, row[0])

    async def by_credential(self, credential_hash: bytes) -> Player | None:
        return await self._player(f"{PLAYER} WHERE credential_hash = %s", credential_hash)

    async def get(self, player_id: str) -> Player | None:
        return await self._player(f"{PLAYER} WHERE player_id = %s", player_id)

    async def _player(self, query: str, key: object) -> Player | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(query, (key,))
            row = await cur.fetchone()
        return None if row is None else Player(*row)

    async def rotate(self, player_id: str, old_hash: bytes, new_hash: bytes) -> bool:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "UPDATE players SET credential_hash = %s, rotated_at = now() "
                "WHERE player_id = %s AND credential_hash = %s",
                (new_hash, player_id, old_hash),
            )
            return cur.rowcount == 1

    async def link_token(self, player_id: str, token_hash: bytes) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO player_tokens (token_hash, player_id) VALUES (%s, %s)",
                (token_hash, player_id),
            )

    async def seat_of(self, player_id: str, match_id: str) -> int | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(SEAT_OF, (match_id, player_id))
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def holders(self, match_id: str) -> list[PlayerSeat]:
        async with self._pool.connection() as conn:
            return await seats_of(conn, [match_id])

    async def names(self, match_id: str) -> dict[int, str]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(NAMES, (match_id,))
            return {int(seat): name for seat, name in await cur.fetchall()}

    async def matches(
        self, credential_hash: bytes, *, before: int | None, limit: int
    ) -> list[PlayerMatch] | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                MATCHES_OF_CREDENTIAL,
                (before if before is not None else 2**63 - 1, limit, credential_hash),
            )
            rows = await cur.fetchall()
        if not rows:
            return None
        return [_player_match(row) for row in rows if row[1] is not None]

    async def matches_of(
        self, player_id: str, *, before: int | None, limit: int
    ) -> list[PlayerMatch]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                MATCHES_OF_PLAYER,
                (player_id, before if before is not None else 2**63 - 1, limit),
            )
            return [_player_match(row) for row in await cur.fetchall()]

    async def notices(self, player_id: str, *, after: int, limit: int) -> list[Notice]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT seq, kind, match_id::text, payload, created_at FROM player_notices "
                "WHERE player_id = %s AND seq > %s ORDER BY seq LIMIT %s",
                (player_id, after, limit),
            )
            return [
                Notice(seq=seq, kind=kind, match_id=m, payload=payload.encode(), created_at=at)
                for seq, kind, m, payload, at in await cur.fetchall()
            ]

    async def add_notices(self, notices: Sequence[NewNotice]) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            await insert_notices(conn, notices)
        self.woke(notices)

    def woke(self, notices: Sequence[NewNotice]) -> None:
        """Wake the inboxes of these notices (committed by now)."""
        for player_id in dict.fromkeys(notice.player_id for notice in notices):
            if self._wake_here is not None:
                self._wake_here(inbox_wakeup(player_id))
            self._wakeups.appended(inbox_wakeup(player_id))

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[PostgresProjectionTurn | None]:
        async with self._pool.connection() as conn:
            async with conn.transaction():
                cur = await conn.execute(
                    "SELECT position FROM player_projection WHERE name = 'players' "
                    "FOR UPDATE SKIP LOCKED"
                )
                row = await cur.fetchone()
                if row is None:
                    yield None
                    return
                turn = PostgresProjectionTurn(conn, int(row[0]))
                yield turn
            self.woke(turn.added)


async def insert_notices(conn: AsyncConnection[Any], notices: Sequence[NewNotice]) -> None:
    # In player order, so two transactions adding to the same players lock them in one order.
    for notice in sorted(notices, key=lambda n: n.player_id):
        cur = await conn.execute(NEXT_SEQ, (notice.player_id,))
        row = await cur.fetchone()
        assert row is not None, "a notice for a player who does not exist"
        await conn.execute(
            INSERT_NOTICE,
            (notice.player_id, row[0], notice.kind, notice.match_id, notice.payload.decode()),
        )


async def seats_of(conn: AsyncConnection[Any], match_ids: Collection[str]) -> list[PlayerSeat]:
    cur = await conn.execute(SEATS, (sorted(match_ids),))
    return [PlayerSeat(m, int(seat), p) for m, seat, p in await cur.fetchall()]


class PostgresProjectionTurn:
    def __init__(self, conn: AsyncConnection[Any], cursor: int) -> None:
        self._conn = conn
        self._cursor = cursor
        self.added: list[NewNotice] = []

    @property
    def cursor(self) -> int:
        return self._cursor

    async def seats(self, match_ids: Collection[str]) -> list[PlayerSeat]:
        return await seats_of(self._conn, match_ids)

    async def known(self, match_ids: Collection[str]) -> list[PlayerMatch]:
        cur = await self._conn.execute(
            f"SELECT {MATCH_COLUMNS} FROM player_matches WHERE match_id = ANY(%s::uuid[])",
            (sorted(match_ids),),
        )
        return [_player_match(row) for row in await cur.fetchall()]

    async def save(self, rows: Sequence[PlayerMatch], notices: Sequence[NewNotice]) -> None:
        if rows:
            async with self._conn.cursor() as cur:
                await cur.executemany(
                    UPSERT_MATCH,
                    [
                        (
                            r.player_id,
                            r.match_id,
                            r.seat,
                            r.status,
                            r.turn,
                            r.version,
                            r.position,
                            r.deadline,
                        )
                        for r in rows
                    ],
                )
        await insert_notices(self._conn, notices)
        self.added += notices

    async def relay_hooks(self) -> list[RelayHook]:
        cur = await self._conn.execute(RELAY_HOOKS)
        return [RelayHook(webhook_id, list(events)) for webhook_id, events in await cur.fetchall()]

    async def add_deliveries(self, deliveries: Sequence[NewDelivery]) -> None:
        await insert_deliveries(self._conn, deliveries)

    async def move_cursor(self, position: int) -> None:
        await self._conn.execute(
            "UPDATE player_projection SET position = %s WHERE name = 'players'", (position,)
        )


def _player_match(row: tuple[Any, ...]) -> PlayerMatch:
    player_id, match_id, seat, status, turn, version, position, deadline = row
    return PlayerMatch(
        deadline=deadline,
        player_id=player_id,
        match_id=match_id,
        seat=seat,
        status=status,
        turn=turn,
        version=version,
        position=position,
    )
