"""From the global event log to delivery rows, driven by a cursor stored in the database.

One pass locks the cursor row (``SKIP LOCKED``: while one process dispatches, the others skip
their turn), reads the next page of the log, adds a delivery for every end of an operator's
match and every webhook of that operator that wants it, and moves the cursor, all in one
transaction. A crash anywhere leaves the cursor where it was and the page is dispatched again;
``UNIQUE (webhook_id, event_position)`` turns the second insert into nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import msgspec
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from service.ports.event_store import EventStore, StoredEvent
from service.store.codec import from_record
from service.tournament.webhooks.payloads import KIND_OF_TYPE, Ending, payload_body

MATCH_STREAM_PREFIX = "match-"

LOCK_CURSOR = "SELECT position FROM webhook_cursor WHERE name = 'dispatcher' FOR UPDATE SKIP LOCKED"

MATCHES = """
SELECT m.match_id::text, m.operator_id::text, m.external_ref,
       array_agg(s.external_player_id ORDER BY s.seat)
FROM matches m JOIN match_seats s USING (match_id)
WHERE m.match_id = ANY(%s::uuid[]) AND m.operator_id IS NOT NULL
GROUP BY m.match_id
"""

WEBHOOKS = """
SELECT webhook_id::text, operator_id::text, events FROM webhooks
WHERE operator_id = ANY(%s::uuid[]) AND deleted_at IS NULL
"""

INSERT_DELIVERY = """
INSERT INTO webhook_deliveries
    (webhook_id, match_id, event_position, event_version, kind, payload)
VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT ON CONSTRAINT webhook_deliveries_once DO NOTHING
"""


class MatchInfo(msgspec.Struct, frozen=True):
    operator_id: str
    external_ref: str | None
    external_player_ids: list[str | None]


class Dispatcher:
    def __init__(
        self, store: EventStore, pool: AsyncConnectionPool[Any], *, page_size: int = 500
    ) -> None:
        self._store = store
        self._pool = pool
        self.page_size = page_size

    async def dispatch_once(self) -> int:
        """Dispatch the next page of the log; how many events it passed (0: nothing to do, or
        another process is dispatching)."""
        async with self._pool.connection() as conn, conn.transaction():
            cur = await conn.execute(LOCK_CURSOR)
            row = await cur.fetchone()
            if row is None:
                return 0
            page = await self._store.read_all(after_position=row[0], limit=self.page_size)
            if not page:
                return 0
            await self._add_deliveries(conn, [r for r in page if _is_match_end(r)])
            await conn.execute(
                "UPDATE webhook_cursor SET position = %s, updated_at = now() "
                "WHERE name = 'dispatcher'",
                (page[-1].position,),
            )
        return len(page)

    async def _add_deliveries(
        self, conn: AsyncConnection[Any], ends: Sequence[StoredEvent]
    ) -> None:
        if not ends:
            return
        matches = await _matches(conn, {_match_id(r) for r in ends})
        if not matches:
            return
        cur = await conn.execute(WEBHOOKS, (sorted({m.operator_id for m in matches.values()}),))
        webhooks = await cur.fetchall()
        rows = []
        for record in ends:
            match_id = _match_id(record)
            match = matches.get(match_id)
            kind = KIND_OF_TYPE[record.type]
            wanted = [
                webhook_id
                for webhook_id, operator_id, events in webhooks
                if match is not None and operator_id == match.operator_id and kind in events
            ]
            if not wanted:
                continue
            assert match is not None
            event = from_record(record)
            assert isinstance(event, Ending)
            body = payload_body(
                match_id=match_id,
                external_ref=match.external_ref,
                external_player_ids=match.external_player_ids,
                version=record.version,
                position=record.position,
                event=event,
            )
            rows += [
                (webhook_id, match_id, record.position, record.version, kind, body)
                for webhook_id in wanted
            ]
        if rows:
            async with conn.cursor() as cursor:
                await cursor.executemany(INSERT_DELIVERY, rows)


async def _matches(conn: AsyncConnection[Any], match_ids: set[str]) -> dict[str, MatchInfo]:
    """The operators' matches among ``match_ids``, by id."""
    cur = await conn.execute(MATCHES, (sorted(match_ids),))
    return {
        match_id: MatchInfo(operator_id, external_ref, list(players))
        for match_id, operator_id, external_ref, players in await cur.fetchall()
    }


def _is_match_end(record: StoredEvent) -> bool:
    if record.type not in KIND_OF_TYPE or not record.stream_id.startswith(MATCH_STREAM_PREFIX):
        return False
    try:
        uuid.UUID(_match_id(record))
    except ValueError:
        return False
    return True


def _match_id(record: StoredEvent) -> str:
    return record.stream_id.removeprefix(MATCH_STREAM_PREFIX)
