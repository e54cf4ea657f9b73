"""The event store in PostgreSQL (psycopg 3, an async connection pool).

The schema and the ``append_events`` function come from the migrations (see
``migrations/versions/0001_event_store.py`` for why the global log is ordered by
``(transaction_id, position)`` and read only below the oldest running transaction). Every
append is one statement in its own transaction, so one round trip; pool connections run in
autocommit.

The adapter chains an append's hashes itself (``service.store.hash_chain.chain``), to the head
it last saw of that stream: its own appends, every read of a stream's tail and every conflict
tell it (``Heads`` keeps them). The statement (``append_statement``) moves the head only if it
is still at that version and hash; when it is not, the answer carries the head the statement
saw, and the adapter chains again to it (migration 0021 says why a second try is sometimes
needed), and, on a conflict, the events after the expected version. A head it has never seen
of a stream past version 0 is read first, one more round trip.

An append to a match stream also wakes whoever waits on it, in any process: after it commits,
never inside its transaction (``adapters/postgres/wakeup_sender.py`` says why and how).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from psycopg import AsyncConnection, sql
from psycopg.rows import TupleRow, args_row
from psycopg_pool import AsyncConnectionPool

from adapters.postgres.append_statement import (
    APPENDS,
    append_outcome,
    append_params,
)
from adapters.postgres.heads import Heads
from adapters.postgres.match_ids import match_id_of_stream, match_ids_of_streams
from adapters.postgres.pool import open_guarded_pool
from adapters.postgres.stream_statements import (
    BEFORE_0026,
    BY_MATCH,
    POSITION_EXISTS,
    READ_ALL_AFTER,
    READ_ALL_FROM_START,
    Statements,
    has_match_ids,
)
from adapters.postgres.wakeup_sender import WakeupSender
from service.errors import IdempotencyKeyReused
from service.ports.event_store import (
    AppendResult,
    IdempotentAppend,
    MalformedEvent,
    NewEvent,
    Snapshot,
    StoredEvent,
    UnknownPosition,
    VerifyReport,
    check_append,
    check_page,
    check_snapshot,
)
from service.store.hash_chain import GENESIS, request_fingerprint, verify_chain
from service.store.live_streams import wakes_readers

# Tries of an append: a stale cached head costs one more, a head moved mid-statement one more.
APPEND_TRIES = 3

Pool = AsyncConnectionPool[AsyncConnection[TupleRow]]
# Seconds a request waits for a connection before the database counts as unavailable.
DEFAULT_TIMEOUT = 2.0


class PostgresEventStore:
    def __init__(self, pool: Pool, *, wake_match_streams: bool = True) -> None:
        """``pool`` must hand out connections in autocommit mode (see ``open_pool``).
        ``wake_match_streams=False`` sends no wake-ups (for benchmarks: live streams off)."""
        self._pool = pool
        self._heads = Heads()
        # Which of ``APPENDS`` the database has: the newest, until it answers it has not.
        self._append = 0
        # Whether its rows carry their match id (migration 0026), once asked.
        self._by_match: bool | None = None
        self._wakeups: WakeupSender | None = None
        if wake_match_streams:
            # Wake-ups go through a connection of their own, to the pool's database.
            if not isinstance(pool.conninfo, str):
                raise TypeError("the pool's conninfo must be a string to send wake-ups")
            self._wakeups = WakeupSender(pool.conninfo)

    @classmethod
    @asynccontextmanager
    async def connect(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, timeout: float = DEFAULT_TIMEOUT
    ) -> AsyncIterator[PostgresEventStore]:
        async with open_pool(url, min_size=min_size, max_size=max_size, timeout=timeout) as pool:
            store = cls(pool)
            try:
                yield store
            finally:
                await store.close_wakeups()

    async def append(
        self,
        stream_id: str,
        events: Sequence[NewEvent],
        *,
        expected_version: int,
        idempotency_key: str | None = None,
        fingerprint: bytes | None = None,
    ) -> AppendResult:
        check_append(stream_id, events, expected_version)
        if idempotency_key is not None and fingerprint is None:
            fingerprint = request_fingerprint(stream_id, expected_version, events)
        previous = await self._previous_hash(stream_id, expected_version)
        for _ in range(APPEND_TRIES):
            params = append_params(
                stream_id, events, expected_version, previous, idempotency_key, fingerprint
            )
            rows = await self._try_append(params)
            row = rows[0]
            outcome, current, head_hash = row[0], row[1], row[5]
            if outcome != "conflict":
                break
            if head_hash is None:
                if current != expected_version:
                    break
                continue  # a new stream made meanwhile: this time the statement sees it
            self._heads.saw(stream_id, current, head_hash)
            if current != expected_version:
                break
            # Same version: either our head was stale (chain again to the one seen), or an
            # append committed while the statement ran (the next one sees it).
            previous = head_hash
        if outcome == "appended":
            self._heads.saw(stream_id, row[3], row[5])
            if self._wakeups is not None and wakes_readers(stream_id):
                self._wakeups.appended(stream_id, row[3])
        return append_outcome(stream_id, expected_version, rows)

    async def _previous_hash(self, stream_id: str, expected_version: int) -> bytes:
        """The hash an append at ``expected_version`` chains to, as far as this process knows."""
        if expected_version == 0:
            return GENESIS
        known = self._heads.get(stream_id)
        if known is None or known[0] < expected_version:
            known = await self._head(stream_id)
        # At another version the append fails (or replays its key) whatever it chains to.
        return known[1] if known[0] == expected_version else GENESIS

    async def _try_append(self, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            return await self._call_append(params)
        except psycopg.errors.UniqueViolation as error:
            if error.diag.constraint_name != "idempotency_keys_pkey":
                raise
        # Another append took this key while we ran: now the key is visible to the statement,
        # unless it is another match's (the statement looks keys up within the match).
        try:
            return await self._call_append(params)
        except psycopg.errors.UniqueViolation as error:
            if error.diag.constraint_name != "idempotency_keys_pkey":
                raise
            raise IdempotencyKeyReused() from None

    async def find_idempotent(self, idempotency_key: str) -> IdempotentAppend | None:
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            cursor = await connection.execute(statements.find_idempotent, (idempotency_key,))
            row = await cursor.fetchone()
        if row is None:
            return None
        fingerprint, stream_id, first, last, positions, last_hash = row
        result = AppendResult(stream_id, first, last, tuple(positions), last_hash)
        return IdempotentAppend(fingerprint, result)

    async def _call_append(self, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            for tries_left in reversed(range(len(APPENDS))):
                try:
                    rows = await self._execute_append(params)
                    break
                except psycopg.errors.UndefinedFunction:
                    # A database before 0026 (or 0021), or one whose upgrade has since added
                    # (or dropped) a function: one of the others is there.
                    if not tries_left:
                        raise
                    self._append = (self._append + 1) % len(APPENDS)
        except psycopg.DataError as error:
            # In practice: data that is not UTF-8 JSON, which the jsonb column refuses.
            raise MalformedEvent(f"the events cannot be stored: {error}") from error
        assert rows, "append_events returns one row"
        return rows

    async def _execute_append(self, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        statement, places = APPENDS[self._append]
        sent = params if self._append == 0 else tuple(params[i] for i in places)
        async with self._pool.connection() as connection:
            cursor = await connection.execute(statement, sent)
            return await cursor.fetchall()

    async def _statements(self, connection: AsyncConnection[TupleRow]) -> Statements:
        """This database's statements: by match from migration 0026 on. Asked once: a database
        upgraded while this process runs is served as it was found (both work on it)."""
        if self._by_match is None:
            self._by_match = await has_match_ids(connection)
        return BY_MATCH if self._by_match else BEFORE_0026

    async def close_wakeups(self) -> None:
        """Send the wake-ups of every append so far and close the connection they go through
        (an append after this opens it again)."""
        if self._wakeups is not None:
            await self._wakeups.close()

    async def read_stream(self, stream_id: str, *, after_version: int = 0) -> list[StoredEvent]:
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            cursor = connection.cursor(row_factory=args_row(StoredEvent))
            await cursor.execute(
                statements.read_stream, (match_id_of_stream(stream_id), stream_id, after_version)
            )
            events = await cursor.fetchall()
        if events:
            self._heads.saw(stream_id, events[-1].version, events[-1].hash)
        return events

    async def read_all(self, *, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        check_page(after_position, limit)
        async with self._pool.connection() as connection:
            cursor = connection.cursor(row_factory=args_row(StoredEvent))
            if after_position == 0:
                await cursor.execute(READ_ALL_FROM_START, (limit,))
                return await cursor.fetchall()
            await cursor.execute(READ_ALL_AFTER, (after_position, limit))
            page = await cursor.fetchall()
            if not page:
                known = await connection.execute(POSITION_EXISTS, (after_position,))
                if await known.fetchone() is None:
                    raise UnknownPosition(after_position)
            return page

    async def read_streams_in_log(
        self, stream_ids: Collection[str], *, after_position: int = 0, limit: int = 1000
    ) -> list[StoredEvent]:
        check_page(after_position, limit)
        params = {
            "matches": match_ids_of_streams(stream_ids),
            "streams": list(stream_ids),
            "after": after_position,
            "limit": limit,
        }
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            cursor = connection.cursor(row_factory=args_row(StoredEvent))
            await cursor.execute(statements.read_streams_in_log, params)
            page = await cursor.fetchall()
            if not page and after_position > 0:
                known = await connection.execute(POSITION_EXISTS, (after_position,))
                if await known.fetchone() is None:
                    raise UnknownPosition(after_position)
            return page

    async def stream_version(self, stream_id: str) -> int:
        version, _ = await self._head(stream_id)
        return version

    async def every_match_blinded_from(self) -> int | None:
        async with self._pool.connection() as connection:
            try:
                cursor = await connection.execute(
                    "SELECT every_match_blinded_from FROM log_leaf_rule"
                )
            except psycopg.errors.UndefinedTable:
                return None  # migration 0020 has not run: no event of the second rule yet
            row = await cursor.fetchone()
        assert row is not None, "migration 0020 writes the one row"
        return int(row[0])

    async def latest_versions(
        self, stream_ids: Collection[str], types: Collection[str]
    ) -> dict[str, dict[str, int]]:
        chosen = sorted(set(types))
        if not stream_ids or not chosen:
            return {}
        async with self._pool.connection() as connection:
            cursor = await connection.execute(
                latest_versions_query(chosen), (sorted(set(stream_ids)),)
            )
            rows = await cursor.fetchall()
        return {
            row[0]: {t: v for t, v in zip(chosen, row[1:], strict=True) if v is not None}
            for row in rows
            if any(v is not None for v in row[1:])
        }

    async def _head(self, stream_id: str) -> tuple[int, bytes]:
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            cursor = await connection.execute(
                statements.read_head, (match_id_of_stream(stream_id), stream_id)
            )
            row = await cursor.fetchone()
        if row is None:
            return 0, GENESIS
        self._heads.saw(stream_id, row[0], row[1])
        return row[0], row[1]

    async def verify_stream(self, stream_id: str) -> VerifyReport:
        # One snapshot for head and events, so an append in between cannot look like tampering.
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
        async with self._pool.connection() as connection, connection.transaction():
            await connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            match_id = match_id_of_stream(stream_id)
            cursor = await connection.execute(statements.read_head, (match_id, stream_id))
            head = await cursor.fetchone()
            events_cursor = connection.cursor(row_factory=args_row(StoredEvent))
            await events_cursor.execute(statements.read_stream, (match_id, stream_id, 0))
            events = await events_cursor.fetchall()
        head_version, head_hash = (head[0], head[1]) if head else (0, GENESIS)
        return verify_chain(stream_id, events, head_version, head_hash)

    async def save_snapshot(
        self, stream_id: str, version: int, state_type: str, data: bytes
    ) -> None:
        check_snapshot(version, await self.stream_version(stream_id))
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            params = (match_id_of_stream(stream_id), stream_id, version, state_type, data)
            await connection.execute(statements.save_snapshot, params)

    async def load_snapshot(self, stream_id: str) -> Snapshot | None:
        async with self._pool.connection() as connection:
            statements = await self._statements(connection)
            cursor = connection.cursor(row_factory=args_row(Snapshot))
            await cursor.execute(
                statements.load_snapshot, (match_id_of_stream(stream_id), stream_id)
            )
            return await cursor.fetchone()


def latest_versions_query(types: Sequence[str]) -> sql.Composed:
    """One column per type, the latest version of that type in each stream.

    Each type is written into the query as a literal, not passed as a parameter: only then may
    the planner use a partial index on that type (``events_deals``, ``events_hand_ends``,
    ``events_match_won``), which makes each column a few index pages.
    """
    latest = sql.SQL(
        "(SELECT max(e.version) FROM events e WHERE e.stream_id = s.stream_id AND e.type = {})"
    )
    return sql.SQL("SELECT s.stream_id, {} FROM unnest(%s::text[]) AS s(stream_id)").format(
        sql.SQL(", ").join(latest.format(sql.Literal(t)) for t in types)
    )


@asynccontextmanager
async def open_pool(
    url: str,
    *,
    min_size: int = 1,
    max_size: int = 10,
    timeout: float = DEFAULT_TIMEOUT,
    hold_timeout: float | None = None,
    wait: bool = True,
) -> AsyncIterator[Pool]:
    """Autocommit connections; ``DatabaseUnavailable`` after ``timeout`` seconds without one,
    or ``hold_timeout`` seconds with one (see ``adapters.postgres.pool``)."""
    async with open_guarded_pool(
        url,
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        hold_timeout=hold_timeout,
        wait=wait,
    ) as pool:
        yield pool
