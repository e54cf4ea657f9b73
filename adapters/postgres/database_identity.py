"""Which database this is, in a way a base backup, a standby and a restore keep and a new
``initdb`` or another database of the cluster do not: the cluster's system identifier and the
database's OID. Names the folder a database's published log checkpoint is kept in."""

from __future__ import annotations

from adapters.postgres.event_store import Pool


async def database_identity(pool: Pool) -> str:
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT (SELECT system_identifier FROM pg_control_system()),"
            " (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        row = await cursor.fetchone()
    assert row is not None
    return f"{row[0]}-{row[1]}"
