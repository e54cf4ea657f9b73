"""``gin audit``: a match checked against the database, which finds rows edited in place even
where a record file alone could not tell (a hash recomputed, the secret swapped), at 2, 3 and 4
seats."""

from __future__ import annotations

import random
import re

import psycopg
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from cli.audit import audit_match
from cli.main import main
from service.audit.verify import Verdict
from service.store.hash_chain import link_hash
from tests.api.any_size import create_at, play_one

Client = AsyncTestClient[Litestar]
# A line of the audit for each hand finished: two seats name the dealer, tables the round.
HAND_LINE = re.compile(r" dealt; |^round \d+ table \d+ ")


@pytest.fixture(params=[2, 3, 4])
async def match_id(client: Client, request: pytest.FixtureRequest) -> str:
    """A match of 2, 3 or 4 seats two hands in (at any table), the next being played."""
    table = await create_at(client, request.param, {"game_target": 500, "match_target": 0})
    rng = random.Random(9)
    while True:
        record = (await client.get(f"{table.path}/record")).json()
        if record["hands_finished"] >= 2:
            return table.match_id
        for _ in range(10):
            await play_one(client, table, rng)


def match_stream(match_id: str) -> tuple[str, ...]:
    """The ids its match stream may have: a two-player match's, or a match of tables'."""
    return f"match-{match_id}", f"format-match-{match_id}"


async def audit(url: str, match_id: str) -> Verdict:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        return await audit_match(PostgresEventStore(pool), PostgresMatchRegistry(pool), match_id)


async def as_owner(url: str, *statements: tuple[str, tuple[object, ...]]) -> None:
    """What the tables' owner could do: switch the append-only trigger off and edit rows."""
    async with await psycopg.AsyncConnection.connect(url) as owner:
        await owner.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        for statement, params in statements:
            await owner.execute(statement, params)
        await owner.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")


async def a_stock_draw(url: str, match_id: str) -> tuple[str, int, bytes]:
    """A draw from the stock: its stream, version and stored data."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute(
            "SELECT stream_id, version, data FROM events WHERE stream_id = ANY(%s) "
            "AND coalesce(body->'event', body)->>'type' = 'drew' "
            "AND coalesce(body->'event', body)->>'source' = 'stock' ORDER BY version LIMIT 1",
            (list(match_stream(match_id)),),
        )
        row = await cur.fetchone()
    assert row is not None
    return row[0], row[1], bytes(row[2])


async def test_an_untouched_match_passes_its_audit(database_url: str, match_id: str) -> None:
    verdict = await audit(database_url, match_id)

    assert verdict.ok, verdict.problem
    assert verdict.lines[0].startswith("stored match stream: ")
    assert verdict.lines[0].endswith(" events, hash chain intact")
    assert sum(bool(HAND_LINE.search(line)) for line in verdict.lines) >= 2


async def test_an_event_row_edited_in_sql_is_named_by_its_version(
    database_url: str, match_id: str
) -> None:
    stream, version, data = await a_stock_draw(database_url, match_id)
    card = data.split(b'"card":"')[1][:2]
    forged = data.replace(b'"card":"' + card, b'"card":"' + (b"Kh" if card != b"Kh" else b"Qh"))
    await as_owner(
        database_url,
        (
            "UPDATE events SET data = %s WHERE stream_id = %s AND version = %s",
            (forged, stream, version),
        ),
    )

    verdict = await audit(database_url, match_id)

    assert not verdict.ok
    assert verdict.problem is not None
    assert verdict.problem.startswith(
        f"the stored match stream is broken at version {version}: the stored hash does not "
        "match the event's content chained to the previous hash"
    )


async def test_a_last_row_edited_with_its_hash_recomputed_is_found_at_the_head(
    database_url: str, match_id: str
) -> None:
    stream, _, _ = await a_stock_draw(database_url, match_id)
    async with await psycopg.AsyncConnection.connect(database_url) as conn:
        cur = await conn.execute(
            "SELECT version, type, schema_version, data FROM events WHERE stream_id = %s "
            "ORDER BY version DESC LIMIT 2",
            (stream,),
        )
        last, before = await cur.fetchall()
        cur = await conn.execute(
            "SELECT hash FROM events WHERE stream_id = %s AND version = %s", (stream, before[0])
        )
        previous = await cur.fetchone()
    assert previous is not None
    version, type, schema_version, data = last
    forged = bytes(data)[:-1] + b',"note":"added later"}'
    rehashed = link_hash(bytes(previous[0]), stream, version, type, schema_version, forged)
    await as_owner(
        database_url,
        (
            "UPDATE events SET data = %s, hash = %s WHERE stream_id = %s AND version = %s",
            (forged, rehashed, stream, version),
        ),
    )

    verdict = await audit(database_url, match_id)

    assert verdict.problem == (
        f"the stored match stream is broken at version {version}: "
        "the stream head's hash does not match the last event"
    )


async def test_a_revealed_seed_edited_in_sql_is_found(database_url: str, match_id: str) -> None:
    stream = f"fairness-{match_id}"
    await as_owner(
        database_url,
        (
            "UPDATE events SET data = convert_to(replace(convert_from(data, 'UTF8'), "
            "'\"seed\":\"', '\"seed\":\"00'), 'UTF8') "
            "WHERE stream_id = %s AND type = 'seed_revealed' AND body->>'step' = 'deal 2'",
            (stream,),
        ),
    )

    verdict = await audit(database_url, match_id)

    assert verdict.problem is not None
    assert verdict.problem.startswith("the stored fairness stream is broken at version ")


async def test_a_swapped_server_secret_no_longer_gives_the_published_commitment(
    database_url: str, match_id: str
) -> None:
    async with await psycopg.AsyncConnection.connect(database_url) as conn:
        await conn.execute(
            "UPDATE matches SET server_secret = %s WHERE match_id = %s", (bytes(32), match_id)
        )

    verdict = await audit(database_url, match_id)

    assert verdict.problem == "the match's stored secret does not give its commitment"


def test_gin_audit_exits_0_for_a_sound_match_and_1_for_an_unknown_one(
    database_url: str, match_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", match_id, "--database-url", database_url]) == 0
    assert capsys.readouterr().out.endswith("VERIFIED: every check holds\n")

    unknown = "00000000-0000-0000-0000-000000000000"
    assert main(["audit", unknown, "--database-url", database_url]) == 1
    assert f"there is no match {unknown}" in capsys.readouterr().out
