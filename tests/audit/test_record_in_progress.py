"""A record of a match whose hand is still being played: it stops at the last finished hand,
and nothing in it (or in the seats' views) tells anything of the hand being played."""

from __future__ import annotations

import random

import msgspec
import psycopg
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.audit.game_record import decode_record
from service.audit.verify import verify_record
from service.fairness.seeds import CHAIN_LINKS, deal_link, server_seed, shuffle_seed, step_of_link
from tests.api.players import Json, Table, without_going_out
from tests.audit.api_play import ENTROPY, create_fair_table, play_until, view_of

Client = AsyncTestClient[Litestar]


def in_second_hand(view: Json) -> bool:
    return bool(
        view["hand_number"] == 2 and view["phase"] == "discard" and view["stock_size"] <= 27
    )


async def into_second_hand(client: Client, table: Table, rng: random.Random) -> Json:
    """A seat to discard in the second hand, four stock draws in. The first hand is played at
    random; the second without going out, so that it cannot end before it gets there."""
    await play_until(client, table, rng, stop=lambda view: view["hand_number"] == 2)
    view = await play_until(client, table, rng, stop=in_second_hand, chooser=without_going_out)
    assert in_second_hand(view)
    return view


async def test_a_record_of_a_hand_in_progress_reveals_nothing_a_seat_may_not_know(
    client: Client, database_url: str
) -> None:
    table = await create_fair_table(client, game_target=500, match_target=0)
    await into_second_hand(client, table, random.Random(3))
    secret, dealt_version, dealt_data, stream_version = await _hidden(database_url, table.match_id)
    # What only the server may know of the hand being played: its seeds and its deal.
    link = server_seed(secret, deal_link(2), CHAIN_LINKS)
    shuffle = shuffle_seed(link, table.match_id, ENTROPY, step_of_link(deal_link(2)))
    dealt = msgspec.json.decode(dealt_data)

    response = await client.get(f"{table.path}/record")

    assert response.status_code == 200, response.text
    text, record = response.text, decode_record(response.content)
    for hidden in (secret.hex(), link.hex(), shuffle.hex(), dealt_data.decode()):
        assert hidden not in text
    assert msgspec.json.encode(dealt["stock"]).decode() not in text
    assert record.status == "in_progress"
    assert record.hands_finished == 1
    assert max(e.version for e in record.match_stream.events) == dealt_version - 1
    assert record.events_left_out == stream_version - dealt_version + 1
    assert [seed.link for seed in record.fairness.revealed] == [1, 2]
    assert record.fairness.secret is None
    assert verify_record(record).ok
    for seat in (0, 1):
        assert (await view_of(client, table, seat))["fairness"] == msgspec.to_builtins(
            record.fairness
        )


async def test_replay_and_history_stop_at_the_last_finished_hand(client: Client) -> None:
    table = await create_fair_table(client, game_target=500, match_target=0)
    view = await into_second_hand(client, table, random.Random(4))

    in_play = await client.get(f"{table.path}/replay", params={"at": view["version"]})
    beyond = await client.get(f"{table.path}/replay", params={"at": view["version"] + 1})
    history = await client.get(f"{table.path}/hands/2/history")

    assert in_play.status_code == 409
    assert in_play.json()["type"] == "/problems/version-in-play"
    assert beyond.status_code == 404
    assert beyond.json()["type"] == "/problems/version-not-found"
    assert history.status_code == 404
    assert history.headers["content-type"] == "application/problem+json"
    assert (await client.get(f"{table.path}/hands/1/history")).status_code == 200


async def _hidden(url: str, match_id: str) -> tuple[bytes, int, bytes, int]:
    """The match's secret, its last deal (version and data) and its version, from the
    database."""
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cur = await conn.execute(
            "SELECT server_secret FROM matches WHERE match_id = %s", (match_id,)
        )
        secret = await cur.fetchone()
        cur = await conn.execute(
            "SELECT version, data FROM events WHERE stream_id = %s AND type = 'dealt' "
            "ORDER BY version DESC LIMIT 1",
            (f"match-{match_id}",),
        )
        dealt = await cur.fetchone()
        cur = await conn.execute(
            "SELECT version FROM streams WHERE stream_id = %s", (f"match-{match_id}",)
        )
        head = await cur.fetchone()
    assert secret is not None
    assert dealt is not None
    assert head is not None
    return bytes(secret[0]), dealt[0], bytes(dealt[1]), head[0]
