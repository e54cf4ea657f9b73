"""The match registry in PostgreSQL: ``matches``, ``match_seats`` and
``match_invites`` (see ``migrations/versions/0002_matches.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection
from psycopg.errors import UniqueViolation
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from service.errors import ExternalRefTaken
from service.ports.match_registry import (
    AcceptedInvite,
    MatchQuery,
    NewRound,
    Owner,
    RegisteredMatch,
    RegisteredSeat,
    Registration,
    RoundInfo,
    RoundQuery,
)

EXTERNAL_REF_INDEX = "matches_operator_external_ref"


class PostgresMatchRegistry:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self._pool = pool

    async def create(
        self,
        match_id: str,
        *,
        external_ref: str | None,
        server_secret: bytes,
        seats: Sequence[RegisteredSeat],
        invite_code_hash: bytes | None = None,
        invite_seat: int | None = None,
        operator_id: str | None = None,
    ) -> None:
        registration = Registration(
            match_id=match_id,
            external_ref=external_ref,
            server_secret=server_secret,
            seats=tuple(seats),
        )
        async with self._pool.connection() as conn, conn.transaction(), _refs_unique():
            await _insert(conn, [registration], operator_id=operator_id, round_id=None)
            if invite_code_hash is not None:
                await conn.execute(
                    "INSERT INTO match_invites (code_hash, match_id, seat) VALUES (%s, %s, %s)",
                    (invite_code_hash, match_id, invite_seat),
                )

    async def create_round(self, round: NewRound) -> None:
        async with self._pool.connection() as conn, conn.transaction(), _refs_unique():
            await conn.execute(
                "INSERT INTO rounds (round_id, operator_id, start_at) VALUES (%s, %s, %s)",
                (round.round_id, round.operator_id, round.start_at),
            )
            await _insert(
                conn, round.matches, operator_id=round.operator_id, round_id=round.round_id
            )

    async def round(self, round_id: str) -> RoundInfo | None:
        found = await self._rounds("r.round_id = %s", [round_id], 1)
        return found[0] if found else None

    async def set_round_start(self, round_id: str, start_at: datetime) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "UPDATE rounds SET start_at = %s WHERE round_id = %s", (start_at, round_id)
            )

    async def operator_rounds(self, operator_id: str, query: RoundQuery) -> list[RoundInfo]:
        where = ["r.operator_id = %s"]
        params: list[Any] = [operator_id]
        if query.created_from is not None:
            where.append("r.created_at >= %s")
            params.append(query.created_from)
        if query.created_before is not None:
            where.append("r.created_at < %s")
            params.append(query.created_before)
        if query.after is not None:
            where.append("(r.created_at, r.round_id) > (%s, %s::uuid)")
            params.extend(query.after)
        return await self._rounds(" AND ".join(where), params, query.limit)

    async def _rounds(self, where: str, params: Sequence[Any], limit: int) -> list[RoundInfo]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT r.round_id::text, r.operator_id::text, r.start_at, r.created_at, "
                "ARRAY(SELECT m.match_id::text FROM matches m WHERE m.round_id = r.round_id "
                "ORDER BY m.round_position) "
                f"FROM rounds r WHERE {where} ORDER BY r.created_at, r.round_id LIMIT %s",
                (*params, limit),
            )
            rows = await cur.fetchall()
        return [
            RoundInfo(
                round_id=round_id,
                operator_id=operator_id,
                start_at=start_at,
                created_at=created_at,
                match_ids=tuple(match_ids),
            )
            for round_id, operator_id, start_at, created_at, match_ids in rows
        ]

    async def get(self, match_id: str) -> RegisteredMatch | None:
        found = await self._select("m.match_id = %s", (match_id,))
        return found[0] if found else None

    async def by_external_ref(self, operator_id: str, external_ref: str) -> RegisteredMatch | None:
        found = await self._select(
            "m.operator_id = %s AND m.external_ref = %s", (operator_id, external_ref)
        )
        return found[0] if found else None

    async def operator_matches(self, operator_id: str, query: MatchQuery) -> list[RegisteredMatch]:
        where = ["operator_id = %s"]
        params: list[Any] = [operator_id]
        if query.external_ref_prefix is not None:
            # starts_with, not LIKE: a prefix holding % or _ means just those characters.
            where.append("starts_with(external_ref, %s)")
            params.append(query.external_ref_prefix)
        if query.created_from is not None:
            where.append("created_at >= %s")
            params.append(query.created_from)
        if query.created_before is not None:
            where.append("created_at < %s")
            params.append(query.created_before)
        if query.round_id is not None:
            where.append("round_id = %s::uuid")
            params.append(query.round_id)
        if query.external_player_id is not None:
            where.append(
                "match_id IN (SELECT match_id FROM match_seats WHERE external_player_id = %s)"
            )
            params.append(query.external_player_id)
        if query.after is not None:
            where.append("(created_at, match_id) > (%s, %s::uuid)")
            params.extend(query.after)
        ids = (
            "m.match_id IN (SELECT match_id FROM matches WHERE "
            + " AND ".join(where)
            + " ORDER BY created_at, match_id LIMIT %s)"
        )
        return await self._select(ids, (*params, query.limit))

    async def owners(self, match_ids: Collection[str]) -> dict[str, Owner]:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT match_id::text, operator_id::text, external_ref, round_id::text "
                "FROM matches "
                "WHERE match_id = ANY(%s::uuid[])",
                (list(match_ids),),
            )
            return {row[0]: Owner(row[1], row[2], row[3]) for row in await cur.fetchall()}

    async def _select(self, where: str, params: Sequence[Any]) -> list[RegisteredMatch]:
        """The matches ``where`` picks (over ``matches m``), in creation order, with seats."""
        async with self._pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(
                "SELECT m.match_id::text AS match_id, m.external_ref, m.server_secret, "
                "m.created_at, m.operator_id::text AS operator_id, "
                "m.round_id::text AS round_id, r.start_at AS clocks_start_at, s.seat, "
                "s.token_hash, s.entropy, s.external_player_id, s.bot "
                "FROM matches m JOIN match_seats s USING (match_id) "
                f"LEFT JOIN rounds r ON r.round_id = m.round_id WHERE {where} "
                "ORDER BY m.created_at, m.match_id, s.seat",
                params,
            )
            rows = await cur.fetchall()
        return [_match(group) for group in _by_match(rows)]

    async def add_invite(self, match_id: str, code_hash: bytes, seat: int) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO match_invites (code_hash, match_id, seat) VALUES (%s, %s, %s)",
                (code_hash, match_id, seat),
            )

    async def invited_match(self, code_hash: bytes) -> str | None:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT match_id::text FROM match_invites "
                "WHERE code_hash = %s AND accepted_at IS NULL",
                (code_hash,),
            )
            row = await cur.fetchone()
        return None if row is None else str(row[0])

    async def accept_invite(
        self, code_hash: bytes, token_hash: bytes, entropy: str
    ) -> AcceptedInvite | None:
        async with self._pool.connection() as conn, conn.transaction():
            cur = await conn.execute(
                "UPDATE match_invites SET accepted_at = now() "
                "WHERE code_hash = %s AND accepted_at IS NULL RETURNING match_id::text, seat",
                (code_hash,),
            )
            row = await cur.fetchone()
            if row is None:
                return None
            match_id, seat = row
            await conn.execute(
                "UPDATE match_seats SET token_hash = %s, entropy = %s "
                "WHERE match_id = %s AND seat = %s",
                (token_hash, entropy, match_id, seat),
            )
        return AcceptedInvite(str(match_id), int(seat))

    async def replace_seat_tokens(self, match_id: str, token_hashes: dict[int, bytes]) -> None:
        async with self._pool.connection() as conn, conn.transaction():
            for seat, token_hash in token_hashes.items():
                await conn.execute(
                    "UPDATE match_seats SET token_hash = %s WHERE match_id = %s AND seat = %s",
                    (token_hash, match_id, seat),
                )

    async def matches_with_bots(self) -> set[str]:
        # One partial index, ``match_seats_bots``, holds exactly these rows.
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT DISTINCT match_id::text FROM match_seats WHERE bot IS NOT NULL"
            )
            return {row[0] for row in await cur.fetchall()}

    async def is_seat_token(self, token_hash: bytes) -> bool:
        async with self._pool.connection() as conn:
            cur = await conn.execute(
                "SELECT 1 FROM match_seats WHERE token_hash = %s", (token_hash,)
            )
            return await cur.fetchone() is not None


def _by_match(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    groups: list[list[dict[str, Any]]] = []
    for row in rows:
        if groups and groups[-1][0]["match_id"] == row["match_id"]:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def _match(rows: list[dict[str, Any]]) -> RegisteredMatch:
    first = rows[0]
    return RegisteredMatch(
        match_id=first["match_id"],
        external_ref=first["external_ref"],
        server_secret=bytes(first["server_secret"]),
        created_at=first["created_at"],
        seats=tuple(
            RegisteredSeat(
                row["seat"],
                None if row["token_hash"] is None else bytes(row["token_hash"]),
                row["entropy"],
                row["external_player_id"],
                row["bot"],
            )
            for row in rows
        ),
        operator_id=first["operator_id"],
        round_id=first["round_id"],
        clocks_start_at=first["clocks_start_at"],
    )


async def _insert(
    conn: AsyncConnection[Any],
    registrations: Sequence[Registration],
    *,
    operator_id: str | None,
    round_id: str | None,
) -> None:
    async with conn.cursor() as cur:
        await cur.executemany(
            "INSERT INTO matches "
            "(match_id, external_ref, server_secret, operator_id, round_id, round_position) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (
                    r.match_id,
                    r.external_ref,
                    r.server_secret,
                    operator_id,
                    round_id,
                    None if round_id is None else position,
                )
                for position, r in enumerate(registrations)
            ],
        )
        await cur.executemany(
            "INSERT INTO match_seats "
            "(match_id, seat, token_hash, entropy, external_player_id, bot) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (r.match_id, s.seat, s.token_hash, s.entropy, s.external_player_id, s.bot)
                for r in registrations
                for s in r.seats
            ],
        )


@asynccontextmanager
async def _refs_unique() -> AsyncIterator[None]:
    try:
        yield
    except UniqueViolation as error:
        if error.diag.constraint_name != EXTERNAL_REF_INDEX:
            raise
        raise ExternalRefTaken(
            "this operator already has a match with this external ref; nothing was created"
        ) from None
