"""Player invites in PostgreSQL: ``player_invites`` (migration 0010), with the invited
player's notice in the same transaction."""

from __future__ import annotations

from adapters.postgres.event_store import Pool
from adapters.postgres.players import PostgresPlayers, insert_notices
from service.ports.player_invites import PlayerInvite
from service.ports.players import NewNotice

COLUMNS = (
    "code_hash, match_id::text, from_player::text, to_player::text, expires_at, rematch_of::text"
)


class PostgresPlayerInvites:
    def __init__(self, pool: Pool, players: PostgresPlayers) -> None:
        self._pool = pool
        self._players = players  # wakes the inboxes written to

    async def add(self, invite: PlayerInvite, notice: NewNotice | None) -> None:
        notices = [notice] if notice is not None else []
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                f"INSERT INTO player_invites ({COLUMNS.replace('::text', '')}) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    invite.code_hash,
                    invite.match_id,
                    invite.from_player,
                    invite.to_player,
                    invite.expires_at,
                    invite.rematch_of,
                ),
            )
            await insert_notices(conn, notices)
        self._players.woke(notices)

    async def get(self, code_hash: bytes) -> PlayerInvite | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                f"SELECT {COLUMNS} FROM player_invites WHERE code_hash = %s", (code_hash,)
            )
            row = await cur.fetchone()
        if row is None:
            return None
        code_hash, match_id, from_player, to_player, expires_at, rematch_of = row
        return PlayerInvite(
            code_hash=bytes(code_hash),
            match_id=match_id,
            from_player=from_player,
            to_player=to_player,
            expires_at=expires_at,
            rematch_of=rematch_of,
        )
