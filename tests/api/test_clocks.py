"""Resigning, turn clocks and forfeits over HTTP at every table size, on the running app (its
deadline timer included) with a clock the test moves: the service and the timer read the
injected clock, and a wake-up on the match's stream makes the timer look again."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from service.store.match_streams import THREE_OR_FOUR_SEATS, TWO_SEATS
from tests.api.any_size import EVERY_SIZE
from tests.api.conftest import Asgi
from tests.api.players import Json, bearer
from tests.lifecycle.table import MovableClock

CLOCKED = {"turn_seconds": 10, "bank_seconds": 5, "timeouts_to_forfeit": 2}


async def created(asgi: Asgi, players: int, **options: Any) -> tuple[str, dict[int, str]]:
    body = {"players": players, "options": {"game_target": 10, "match_target": 0, **options}}
    response = await asgi.client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    answer = response.json()
    return answer["match_id"], {seat["seat"]: seat["token"] for seat in answer["seats"]}


async def view(asgi: Asgi, match_id: str, token: str) -> Json:
    response = await asgi.client.get(f"/matches/{match_id}/view", headers=bearer(token))
    assert response.status_code == 200, response.text
    seen: Json = response.json()
    return seen


def injected_clock(asgi: Asgi) -> MovableClock:
    clock = MovableClock()
    clock.now = datetime.now(UTC)
    asgi.app.state.matches.clock = clock
    return clock


def tables_of(seen: Json) -> list[tuple[list[int], Json]]:
    """Each table's match seats and its view: at two seats, the match is the one table."""
    if "tables" not in seen:
        return [([0, 1], seen)]
    return [(table["seats"], table["view"]) for table in seen["tables"]]


def on_the_clock(seen: Json) -> tuple[int, datetime]:
    """The match seat whose deadline comes first, and that deadline."""
    clocks = []
    for seats, table in tables_of(seen):
        clock = table["clock"]
        if clock is not None and clock["seat"] is not None:
            due = datetime.fromisoformat(clock["due_at"])
            clocks.append((due, seats[clock["seat"]]))
    due, seat = min(clocks)
    return seat, due


def table_events(events: list[Json]) -> list[Json]:
    """The events of the hands, unwrapped from their tables at three and four seats."""
    return [
        e["event"]["event"] if e["event"]["type"] == "table_event" else e["event"] for e in events
    ]


async def past_deadline(asgi: Asgi, clock: MovableClock, match_id: str, token: str) -> int:
    """Move the clock to the first deadline and wake the timer; the seat timed out."""
    seen = await view(asgi, match_id, token)
    seat, due = on_the_clock(seen)
    clock.now = max(clock.now, due)
    streams = TWO_SEATS if "tables" not in seen else THREE_OR_FOUR_SEATS
    asgi.app.state.wakeups.wake(streams.stream_id(match_id))
    for _ in range(200):  # the timer runs in this event loop: give it its turn
        await asyncio.sleep(0.05)
        after = await view(asgi, match_id, token)
        if after["version"] != seen["version"]:
            return seat
    raise AssertionError("the timeout was not made")


@EVERY_SIZE
async def test_a_seat_resigns_with_a_command_and_the_match_is_over(asgi: Asgi, seats: int) -> None:
    match_id, tokens = await created(asgi, seats)
    path = f"/matches/{match_id}"

    response = await asgi.client.post(
        f"{path}/commands", json={"type": "resign"}, headers=bearer(tokens[1])
    )

    assert response.status_code == 200, response.text
    ending = response.json()["ending"]
    assert (ending["reason"], ending["seat"]) == ("resigned", 1)
    assert ending["winner"] == 0  # the other team; of seats 0 and 2, level, the lower
    for seat, token in tokens.items():
        seen = await view(asgi, match_id, token)
        assert (seen["phase"], seen["legal_actions"]) == ("match_over", [])
        assert seen.get("turns", []) == []
        assert seen.get("turn") is None
        assert seen["ending"] == ending, seat
    again = await asgi.client.post(
        f"{path}/commands", json={"type": "resign"}, headers=bearer(tokens[0])
    )
    assert again.status_code == 409, again.text
    assert again.json()["type"] == "/problems/match-already-ended"
    summary = (await asgi.client.get(path)).json()
    assert summary["status"] == "finished"
    events = (await asgi.client.get(f"{path}/events")).json()["events"]
    assert events[-1]["event"]["type"] == "match_ended"


@EVERY_SIZE
async def test_each_table_shows_its_own_clock(asgi: Asgi, seats: int) -> None:
    injected_clock(asgi)
    match_id, tokens = await created(asgi, seats, **CLOCKED)

    seen = await view(asgi, match_id, tokens[0])

    on = [at[table["clock"]["seat"]] for at, table in tables_of(seen)]
    assert sorted(on) == sorted(seen["turns"] if "turns" in seen else [seen["turn"]])
    for _, table in tables_of(seen):
        assert table["clock"]["banks_ms"] == [5_000, 5_000]


@EVERY_SIZE
async def test_a_timeout_makes_the_default_move_and_a_late_move_is_refused(
    asgi: Asgi, seats: int
) -> None:
    clock = injected_clock(asgi)
    match_id, tokens = await created(asgi, seats, **CLOCKED)
    seat, due = on_the_clock(await view(asgi, match_id, tokens[0]))

    clock.now = due + timedelta(milliseconds=1)  # the timer is not woken yet
    late = await asgi.client.post(
        f"/matches/{match_id}/commands", json={"type": "pass_upcard"}, headers=bearer(tokens[seat])
    )
    assert late.status_code == 409, late.text
    assert late.json()["type"] == "/problems/deadline-passed"

    assert await past_deadline(asgi, clock, match_id, tokens[0]) == seat
    events = (await asgi.client.get(f"/matches/{match_id}/events")).json()["events"]
    inner = table_events(events)
    kinds = [e["type"] for e in inner]
    timed_out = kinds.index("timed_out")
    if seats == 2:
        # The timeout spends the bank itself; the cut's winner chooses the dealer by default.
        assert kinds[timed_out + 1] == "dealer_chosen"
    else:
        spent = inner[timed_out + 1]  # the bank is spent, then the default move is made
        assert (spent["type"], spent["seat"], spent["due_at"]) == ("deadline_set", None, None)
        assert kinds[timed_out + 2] == "upcard_passed"
    seen = await view(asgi, match_id, tokens[seat])
    assert seen["ending"] is None
    assert seen["phase"] != "match_over"


@EVERY_SIZE
async def test_timeouts_in_a_row_forfeit_the_match(asgi: Asgi, seats: int) -> None:
    clock = injected_clock(asgi)
    match_id, tokens = await created(asgi, seats, **{**CLOCKED, "timeouts_to_forfeit": 1})

    seat = await past_deadline(asgi, clock, match_id, tokens[0])

    ending = (await view(asgi, match_id, tokens[0]))["ending"]
    assert (ending["reason"], ending["seat"]) == ("forfeited_on_time", seat)
    if seats == 4:
        assert ending["winner"] == 1 - seat % 2
    else:
        assert ending["winner"] != seat
