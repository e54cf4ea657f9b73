"""A round's start put later, at every table size, while no clock of it has started: its
matches take no move before the new start, their clocks count from it and no bank is charged
for the wait; a round on a turn clock goes later by at most ``turn_seconds`` (further, the rules
would charge the wait to a bank), one without a turn clock by any distance. The app runs with a
clock the test moves."""

from __future__ import annotations

from datetime import datetime, timedelta

from service.audit.verify import verify_document
from tests.api.any_size import EVERY_SIZE, QUICK
from tests.api.conftest import Asgi
from tests.api.players import Json, bearer
from tests.api.test_round_start import (
    create_round,
    deadlines,
    moved_clock,
    operator_key,
    seat_to_move,
)


async def move_start(asgi: Asgi, key: str, made: Json, start: datetime) -> Json:
    response = await asgi.client.post(
        f"/rounds/{made['round_id']}/start",
        json={"clocks_start_at": start.isoformat()},
        headers=bearer(key),
    )
    answer: Json = response.json()
    answer["status"] = response.status_code
    return answer


@EVERY_SIZE
async def test_a_start_put_later_by_up_to_a_turn_holds_from_its_new_time(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    first = clock.now + timedelta(seconds=120)
    made = await create_round(asgi, key, seats, first)
    later = first + timedelta(seconds=30)  # CLOCKED's turn_seconds

    moved = await move_start(asgi, key, made, later)

    assert moved["status"] == 200, moved
    assert datetime.fromisoformat(moved["clocks_start_at"]) == later
    match = made["matches"][0]
    tokens = [seat["token"] for seat in match["seats"]]
    token, action, seen = await seat_to_move(asgi, match["match_id"], tokens)
    # The first decision's clock counts from the new start, its bank whole: 30 s + 60 s.
    assert set(deadlines(seen)) == {later + timedelta(seconds=90)}
    commands = f"/matches/{match['match_id']}/commands"
    clock.now = first + timedelta(seconds=1)  # the old start passed, the new one not
    early = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert (early.status_code, early.json()["type"]) == (409, "/problems/match-not-started")
    assert later.isoformat() in early.json()["detail"]
    clock.now = later + timedelta(seconds=1)
    on_time = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert on_time.status_code == 200, on_time.text
    record = await asgi.client.get(f"/matches/{match['match_id']}/record")
    verdict = verify_document(record.content)
    assert verdict.ok, verdict.render()  # every stamp is the rules' own
    results = await asgi.client.get(f"/rounds/{made['round_id']}", headers=bearer(key))
    assert datetime.fromisoformat(results.json()["clocks_start_at"]) == later


@EVERY_SIZE
async def test_a_round_without_a_turn_clock_starts_later_by_any_distance(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    first = clock.now + timedelta(seconds=120)
    body = {"options": QUICK, "clocks_start_at": first.isoformat(), "matches": [{"players": seats}]}
    created = await asgi.client.post("/rounds", json=body, headers=bearer(key))
    assert created.status_code == 201, created.text
    made: Json = created.json()
    later = first + timedelta(hours=2)

    moved = await move_start(asgi, key, made, later)

    assert moved["status"] == 200, moved
    match = made["matches"][0]
    tokens = [seat["token"] for seat in match["seats"]]
    token, action, seen = await seat_to_move(asgi, match["match_id"], tokens)
    commands = f"/matches/{match['match_id']}/commands"
    clock.now = later - timedelta(seconds=1)
    early = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert (early.status_code, early.json()["type"]) == (409, "/problems/match-not-started")
    clock.now = later
    on_time = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert on_time.status_code == 200, on_time.text
    assert on_time.json()["version"] > seen["version"]


@EVERY_SIZE
async def test_a_start_put_later_than_a_turn_on_a_clock_is_refused_and_changes_nothing(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    first = clock.now + timedelta(seconds=120)
    made = await create_round(asgi, key, seats, first)
    match = made["matches"][0]
    tokens = [seat["token"] for seat in match["seats"]]
    _, _, before = await seat_to_move(asgi, match["match_id"], tokens)

    refused = await move_start(asgi, key, made, first + timedelta(seconds=31))

    assert (refused["status"], refused["type"]) == (422, "/problems/invalid-round")
    assert "cancel the round" in refused["detail"]
    _, _, after = await seat_to_move(asgi, match["match_id"], tokens)
    assert after == before
    results = await asgi.client.get(f"/rounds/{made['round_id']}", headers=bearer(key))
    assert datetime.fromisoformat(results.json()["clocks_start_at"]) == first


@EVERY_SIZE
async def test_a_start_moved_after_the_round_began_is_refused(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    first = clock.now + timedelta(seconds=120)
    made = await create_round(asgi, key, seats, first)
    clock.now = first + timedelta(seconds=1)

    refused = await move_start(asgi, key, made, clock.now + timedelta(seconds=20))
    past = await move_start(asgi, key, made, clock.now - timedelta(seconds=20))

    assert (refused["status"], refused["type"]) == (409, "/problems/round-started")
    assert (past["status"], past["type"]) == (409, "/problems/round-started")
