"""Loading a match: a snapshot plus the events after it gives exactly the state that replaying
every event from scratch gives, and a process's cached state never hides another's commits."""

from __future__ import annotations

import random

from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore
from domain import fold
from service.store.codec import from_record
from service.store.match_streams import MatchStreams, stream_id
from tests.api.players import create_table, play_match

Client = AsyncTestClient[Litestar]


async def test_a_snapshot_and_its_tail_equal_a_replay_from_scratch(
    client: Client, database_url: str
) -> None:
    table = await create_table(client, game_target=150, match_target=0)
    final = await play_match(client, table, random.Random(21))
    assert final["version"] > 50
    async with PostgresEventStore.connect(database_url) as store:
        snapshot = await store.load_snapshot(stream_id(table.match_id))
        assert snapshot is not None, "the service saves a snapshot every 50 events"
        assert 50 <= snapshot.version <= final["version"]
        records = await store.read_stream(stream_id(table.match_id))
        from_scratch = fold(from_record(record) for record in records)
        for every in (50, 7):
            loaded = await MatchStreams(store, snapshot_every=every).load(table.match_id)
            assert loaded.version == final["version"]
            assert loaded.state == from_scratch
        midway = await MatchStreams(store).load_at(table.match_id, 30)
        assert midway.state == fold(from_record(record) for record in records[:30])


async def test_a_cached_state_is_only_a_start_the_store_is_read_every_time(
    client: Client, database_url: str
) -> None:
    table = await create_table(client)
    async with PostgresEventStore.connect(database_url) as store:
        streams = MatchStreams(store)
        before = await streams.load(table.match_id)
        view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
        seat = view["turn"]
        choice = {"type": "choose_dealer", "dealer": 1}
        response = await client.post(
            f"{table.path}/commands", json=choice, headers=table.headers(seat)
        )
        assert response.status_code == 200
        after = await streams.load(table.match_id)
        assert after.version == response.json()["version"] > before.version
        assert after.state.dealer == 1
