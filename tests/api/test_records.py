"""Game records over HTTP and in the database. At every table size a finished match's record
verifies, names the seats the server's bots played, and a match resigned mid-hand is recorded
whole. Of a match of several tables: the record served while a round is played leaves that
round out and verifies; ``gin audit`` checks one in the database and names a row edited in
place; hand histories and replays name the table (two seats: tests/audit)."""

from __future__ import annotations

import random
from collections.abc import Callable

import psycopg
from litestar import Litestar
from litestar.testing import AsyncTestClient

from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from cli.audit import audit_match
from service.audit.game_record import decode_record
from service.audit.verify import Verdict, verify_record
from tests.api.any_size import EVERY_SIZE, create_at, play_out
from tests.api.players import Json, bearer, choose
from tests.api.test_formats import create

Client = AsyncTestClient[Litestar]


async def play_until(
    client: Client, path: str, tokens: dict[int, str], seed: int, stop: Callable[[Json], bool]
) -> Json:
    """Random legal moves until ``stop`` holds for seat 0's view (or the match is over)."""
    rng = random.Random(seed)
    for _ in range(5_000):
        views = {
            seat: (await client.get(f"{path}/view", headers=bearer(token))).json()
            for seat, token in tokens.items()
        }
        if stop(views[0]) or views[0]["phase"] == "match_over":
            seen: Json = views[0]
            return seen
        seat = rng.choice([seat for seat, v in views.items() if v["legal_actions"]])
        command = choose(views[seat], rng)
        response = await client.post(f"{path}/commands", json=command, headers=bearer(tokens[seat]))
        assert response.status_code == 200, response.text
    raise AssertionError("the match did not get there")


async def test_a_record_served_mid_round_leaves_the_round_out_and_verifies(
    client: Client,
) -> None:
    created = await create(client, players=4, options={"game_target": 200, "match_target": 0})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    view = await play_until(
        client, path, tokens, 5, lambda v: v["round"] >= 3 and v["phase"] == "play"
    )
    response = await client.get(f"{path}/record")
    assert response.status_code == 200, response.text
    record = decode_record(response.content)
    assert record.status == "in_progress"
    assert record.events_left_out > 0
    assert record.match_stream.events[-1].type == "round_started"
    assert record.hands_finished == 2 * (view["round"] - 1)
    assert len(record.checkpoints) == 2
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()
    # Seeds: the cut's and one per finished hand, none of the round being played.
    assert len(record.fairness.revealed) == 1 + record.hands_finished


@EVERY_SIZE
async def test_a_finished_match_record_verifies(client: Client, seats: int) -> None:
    table = await create_at(client, seats)
    await play_out(client, table, random.Random(6))
    record = decode_record((await client.get(f"{table.path}/record")).content)
    assert record.status == "finished"
    assert record.events_left_out == 0
    assert [seat.seat for seat in record.seats] == list(range(seats))
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()


async def audit(url: str, match_id: str) -> Verdict:
    async with open_pool(url, min_size=1, max_size=2) as pool:
        return await audit_match(PostgresEventStore(pool), PostgresMatchRegistry(pool), match_id)


async def test_gin_audit_checks_a_format_match_and_finds_a_row_edited_in_place(
    client: Client, database_url: str
) -> None:
    created = await create(client, players=3, options={"game_target": 100, "match_target": 0})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    match_id = created["match_id"]
    await play_until(client, f"/matches/{match_id}", tokens, 7, lambda v: v["round"] >= 3)
    verdict = await audit(database_url, match_id)
    assert verdict.ok, verdict.render()
    assert verdict.lines[0].startswith("stored match stream: ")
    assert any(" table 0 (seats" in line for line in verdict.lines)
    async with await psycopg.AsyncConnection.connect(database_url) as owner:
        cursor = await owner.execute(
            "SELECT version, data FROM events WHERE stream_id = %s AND type = 'round_scored' "
            "ORDER BY version LIMIT 1",
            (f"format-match-{match_id}",),
        )
        row = await cursor.fetchone()
        assert row is not None
        version, data = row[0], bytes(row[1])
        forged = data.replace(b'"round":1', b'"round":2')
        assert forged != data
        await owner.execute("ALTER TABLE events DISABLE TRIGGER events_append_only")
        await owner.execute(
            "UPDATE events SET data = %s WHERE stream_id = %s AND version = %s",
            (forged, f"format-match-{match_id}", version),
        )
        await owner.execute("ALTER TABLE events ENABLE TRIGGER events_append_only")
    verdict = await audit(database_url, match_id)
    assert not verdict.ok
    assert f"stored match stream is broken at version {version}" in (verdict.problem or "")


async def test_hand_histories_and_replay_name_the_table_and_refuse_the_round_in_play(
    client: Client,
) -> None:
    created = await create(client, players=4, options={"game_target": 200, "match_target": 0})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    await play_until(client, path, tokens, 8, lambda v: v["round"] >= 2 and v["phase"] == "play")
    record = decode_record((await client.get(f"{path}/record")).content)
    deals = [e.version for e in record.match_stream.events if '"type":"dealt"' in e.data]
    assert len(deals) == 2  # round 1, both tables
    for hand, table in ((1, 0), (2, 1)):
        response = await client.get(f"{path}/hands/{hand}/history")
        assert response.status_code == 200, response.text
        text = response.text
        assert f"hand {hand}: round 1, table {table}; table seats 0 and 1 are seats" in text
        assert f"Server seed: link {hand + 1} (deal {hand})" in text
        assert "Result: " in text
    in_play = await client.get(f"{path}/hands/3/history")
    assert in_play.status_code == 404, in_play.text  # as for a two-player hand in play
    replayed = await client.get(f"{path}/replay", params={"at": deals[1]})
    assert replayed.status_code == 200, replayed.text
    state = replayed.json()
    assert state["kind"] == "three_or_four_players"
    assert [len(hand) for hand in state["tables"][1]["hands"]] == [10, 10]
    assert len(state["tables"][1]["stock"]) == 31
    assert state["tables"][0]["phase"] != "deal"
    last = record.match_stream.events[-1].version
    refused = await client.get(f"{path}/replay", params={"at": last + 1})
    assert refused.status_code == 409, refused.text


BOTS = {
    2: [None, "simple"],
    3: [None, "simple", "random"],
    4: ["strong", None, None, "simple"],
}


@EVERY_SIZE
async def test_a_record_names_the_seats_the_servers_bots_played(client: Client, seats: int) -> None:
    created = await create(client, players=seats, bots=BOTS[seats])
    response = await client.get(f"/matches/{created['match_id']}/record")
    assert response.status_code == 200, response.text
    record = decode_record(response.content)
    assert [seat.bot for seat in record.seats] == BOTS[seats]
    assert [seat.seat for seat in record.seats] == list(range(seats))
    # A person's seat is joined from the start, with its token; so is every bot's.
    assert all(seat.joined for seat in record.seats)
    assert verify_record(record).ok


def in_second_deal(view: Json) -> bool:
    """A second hand (at three and four seats, a second round) is being played."""
    if "round" in view:
        return bool(view["round"] >= 2 and view["phase"] == "play")
    return bool(view["hand_number"] >= 2 and view["phase"] not in ("deal", "hand_over"))


@EVERY_SIZE
async def test_a_match_resigned_mid_hand_is_recorded_whole_and_verifies(
    client: Client, seats: int
) -> None:
    created = await create(client, players=seats, options={"game_target": 200})
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    path = f"/matches/{created['match_id']}"
    view = await play_until(client, path, tokens, 7, in_second_deal)
    assert in_second_deal(view), view
    resigned = await client.post(
        f"{path}/commands", json={"type": "resign"}, headers=bearer(tokens[1])
    )
    assert resigned.status_code == 200, resigned.text
    record = decode_record((await client.get(f"{path}/record")).content)
    assert record.status == "finished"
    assert record.events_left_out == 0
    assert record.match_stream.events[-1].type == "match_ended"
    if seats > 2:
        # The round in play when the match ended is in it: dealt, its hands never scored.
        assert record.match_stream.events[-2].type != "round_started"
    else:
        # The hand in play when the match ended is in it, its deal included.
        hands = [e.type for e in record.match_stream.events if e.type == "dealt"]
        assert len(hands) == view["hand_number"]
    verdict = verify_record(record)
    assert verdict.ok, verdict.render()
