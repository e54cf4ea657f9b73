"""A round's ``clocks_start_at`` holds at every table size: no clock runs and no move is taken
before it, and a start already past is refused. The app runs with a clock the test moves."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from adapters.postgres.event_store import open_pool
from service.audit.verify import verify_document
from tests.api.any_size import EVERY_SIZE
from tests.api.conftest import Asgi
from tests.api.players import Json, bearer
from tests.lifecycle.table import MovableClock
from tests.tournament.conftest import operator_keys

CLOCKED = {"game_target": 10, "match_target": 0, "turn_seconds": 30, "bank_seconds": 60}


def moved_clock(asgi: Asgi) -> MovableClock:
    clock = MovableClock()
    clock.now = datetime.now(UTC).replace(microsecond=0)
    asgi.app.state.matches.clock = clock
    return clock


async def operator_key(database_url: str) -> str:
    """Made as ``gin operator create-key`` makes it: as the schema's owner, not the app."""
    async with open_pool(database_url, min_size=1, max_size=1) as pool:
        made = await operator_keys(pool).create_key(
            f"desk {uuid.uuid4()}", ["matches:create", "matches:read"]
        )
    return made.key


async def create_round(asgi: Asgi, key: str, seats: int, start: datetime) -> Json:
    body = {
        "options": CLOCKED,
        "clocks_start_at": start.isoformat(),
        "matches": [{"players": seats}],
    }
    response = await asgi.client.post("/rounds", json=body, headers=bearer(key))
    made: Json = response.json()
    made["status"] = response.status_code
    return made


async def seat_to_move(asgi: Asgi, match_id: str, tokens: list[str]) -> tuple[str, Json, Json]:
    """A seat with a legal action: its token, the action and its view."""
    for token in tokens:
        response = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(token))
        seen = response.json()
        if seen["legal_actions"]:
            return token, seen["legal_actions"][0], seen
    raise AssertionError("no seat has a legal action")


def deadlines(seen: Json) -> list[datetime]:
    tables = [table["view"] for table in seen["tables"]] if "tables" in seen else [seen]
    return [
        datetime.fromisoformat(t["clock"]["due_at"])
        for t in tables
        if t["clock"] is not None and t["clock"]["due_at"] is not None
    ]


@EVERY_SIZE
async def test_no_clock_runs_and_no_move_is_taken_before_the_start(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    start = clock.now + timedelta(seconds=120)

    made = await create_round(asgi, key, seats, start)

    assert made["status"] == 201, made
    match = made["matches"][0]
    tokens = [seat["token"] for seat in match["seats"]]
    token, action, seen = await seat_to_move(asgi, match["match_id"], tokens)
    # Each clock's first decision starts at the start: its turn and its bank after it.
    assert deadlines(seen)
    assert set(deadlines(seen)) == {start + timedelta(seconds=90)}
    commands = f"/matches/{match['match_id']}/commands"
    clock.now = start - timedelta(seconds=1)
    early = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert early.status_code == 409, early.text
    assert early.json()["type"] == "/problems/match-not-started"
    assert start.isoformat() in early.json()["detail"]
    resign = await asgi.client.post(commands, json={"type": "resign"}, headers=bearer(token))
    assert resign.status_code == 409, resign.text
    view = await asgi.client.get(f"/matches/{match['match_id']}/view", headers=bearer(token))
    assert view.json()["version"] == seen["version"]

    clock.now = start + timedelta(seconds=1)
    on_time = await asgi.client.post(commands, json=action, headers=bearer(token))

    assert on_time.status_code == 200, on_time.text
    record = await asgi.client.get(f"/matches/{match['match_id']}/record")
    assert record.status_code == 200, record.text
    verdict = verify_document(record.content)
    assert verdict.ok, verdict.render()  # the clocks stamped at the start verify


@EVERY_SIZE
async def test_a_start_already_past_is_refused(asgi: Asgi, database_url: str, seats: int) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)

    past = await create_round(asgi, key, seats, clock.now - timedelta(seconds=1))
    long_past = await create_round(asgi, key, seats, datetime(2001, 1, 1, tzinfo=UTC))

    for refused in (past, long_past):
        assert refused["status"] == 422, refused
        assert refused["type"] == "/problems/invalid-round"
        assert "clocks_start_at" in refused["detail"]


@EVERY_SIZE
async def test_a_start_without_a_time_zone_is_refused(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    moved_clock(asgi)
    key = await operator_key(database_url)
    body = {"clocks_start_at": "2030-01-01T18:00:00", "matches": [{"players": seats}]}

    refused = await asgi.client.post("/rounds", json=body, headers=bearer(key))

    assert refused.status_code in (400, 422), refused.text
    assert refused.headers["content-type"] == "application/problem+json"


@EVERY_SIZE
async def test_a_round_started_now_takes_moves_at_once_its_clocks_counting_from_now(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    made = await create_round(asgi, key, seats, clock.now + timedelta(seconds=120))
    match = made["matches"][0]
    clock.now += timedelta(seconds=10)

    started = await asgi.client.post(
        f"/rounds/{made['round_id']}/start", json={}, headers=bearer(key)
    )

    assert started.status_code == 200, started.text
    assert datetime.fromisoformat(started.json()["clocks_start_at"]) == clock.now
    tokens = [seat["token"] for seat in match["seats"]]
    token, action, seen = await seat_to_move(asgi, match["match_id"], tokens)
    assert set(deadlines(seen)) == {clock.now + timedelta(seconds=90)}
    moved = await asgi.client.post(
        f"/matches/{match['match_id']}/commands", json=action, headers=bearer(token)
    )
    assert moved.status_code == 200, moved.text
    again = await asgi.client.post(
        f"/rounds/{made['round_id']}/start", json={}, headers=bearer(key)
    )
    assert (again.status_code, again.json()["type"]) == (409, "/problems/round-started")
    record = await asgi.client.get(f"/matches/{match['match_id']}/record")
    verdict = verify_document(record.content)
    assert verdict.ok, verdict.render()


@EVERY_SIZE
async def test_a_start_brought_forward_holds_from_its_new_time(
    asgi: Asgi, database_url: str, seats: int
) -> None:
    clock = moved_clock(asgi)
    key = await operator_key(database_url)
    first = clock.now + timedelta(seconds=120)
    made = await create_round(asgi, key, seats, first)
    path = f"/rounds/{made['round_id']}/start"
    sooner = clock.now + timedelta(seconds=60)

    later = await asgi.client.post(
        path,
        # Later than one turn: the wait would be charged to the bank of the seat to move.
        json={"clocks_start_at": (first + timedelta(seconds=31)).isoformat()},
        headers=bearer(key),
    )
    moved = await asgi.client.post(
        path, json={"clocks_start_at": sooner.isoformat()}, headers=bearer(key)
    )

    assert (later.status_code, later.json()["type"]) == (422, "/problems/invalid-round")
    assert "turn_seconds (30 s)" in later.json()["detail"]
    assert moved.status_code == 200, moved.text
    match = made["matches"][0]
    tokens = [seat["token"] for seat in match["seats"]]
    token, action, seen = await seat_to_move(asgi, match["match_id"], tokens)
    assert set(deadlines(seen)) == {sooner + timedelta(seconds=90)}
    commands = f"/matches/{match['match_id']}/commands"
    clock.now = sooner - timedelta(seconds=1)
    early = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert (early.status_code, early.json()["type"]) == (409, "/problems/match-not-started")
    clock.now = sooner + timedelta(seconds=1)
    on_time = await asgi.client.post(commands, json=action, headers=bearer(token))
    assert on_time.status_code == 200, on_time.text
    results = await asgi.client.get(f"/rounds/{made['round_id']}", headers=bearer(key))
    assert datetime.fromisoformat(results.json()["clocks_start_at"]) == sooner
