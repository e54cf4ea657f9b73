"""Idempotent commands, at every table size: a retry with the same Idempotency-Key returns the
same response (the bots' replies in it included) and changes nothing, whatever happened to the
match in between; the key with another command is refused; a refused command is not kept under
its key."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.any_size import EVERY_SIZE, create_at, views
from tests.api.players import LONG_GAME, Json, Table, choose, without_going_out
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def turn_view(client: Client, table: Table, *, besides: int | None = None) -> Json:
    """The view of a seat that may act (the first in seat order), other than ``besides``."""
    seen = await views(client, table)
    for seat, view in sorted(seen.items()):
        if view["legal_actions"] and seat != besides:
            return view
    raise AssertionError(f"no seat but {besides} may act: {seen}")


async def play_on(client: Client, table: Table, rng: random.Random | None = None) -> None:
    """One command by a seat that may act; without going out unless ``rng`` chooses."""
    view = await turn_view(client, table)
    action = choose(view, rng) if rng else without_going_out(view)
    response = await send(client, table, view["seat"], action, None)
    assert response.status_code == 200, response.text


def may_draw(view: Json) -> bool:
    return any(a["type"] == "draw_from_stock" for a in view["legal_actions"])


async def send(client: Client, table: Table, seat: int, body: Any, key: str | None) -> Any:
    headers = {**table.headers(seat), **({"Idempotency-Key": key} if key else {})}
    return await client.post(f"{table.path}/commands", json=body, headers=headers)


async def event_count(client: Client, table: Table) -> int:
    return len((await client.get(f"{table.path}/events")).json()["events"])


async def with_bots(client: Client, seats: int, bot: str) -> tuple[Table, Json]:
    """A match where seat 0 is a person and every other seat a bot; the person's view, once it
    has a move (the bots' replies come within the person's commands)."""
    response = await client.post(
        "/matches",
        json={"players": seats, "bots": [None] + [bot] * (seats - 1), "options": LONG_GAME},
    )
    assert response.status_code == 201, response.text
    (seat,) = response.json()["seats"]
    table = Table(response.json()["match_id"], {seat["seat"]: seat["token"]})
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    assert view["legal_actions"], view
    return table, view


@EVERY_SIZE
async def test_a_retry_returns_the_same_response_and_changes_nothing(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, LONG_GAME)
    view = await turn_view(client, table)
    action = view["legal_actions"][0]
    first = await send(client, table, view["seat"], action, "key-1")
    assert first.status_code == 200, first.text
    count = await event_count(client, table)
    assert count == first.json()["version"]
    again = await send(client, table, view["seat"], action, "key-1")
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    assert await event_count(client, table) == count


@EVERY_SIZE
async def test_a_retry_gets_the_first_answer_with_the_bots_replies(
    client: Client, seats: int
) -> None:
    table, view = await with_bots(client, seats, "random")
    # A discard: the next seat at the person's table, a bot, answers within the command.
    while not any(a["type"] == "discard" for a in view["legal_actions"]):
        response = await send(client, table, 0, without_going_out(view), None)
        assert response.status_code == 200, response.text
        view = response.json()
    action = without_going_out(view)
    first = await send(client, table, 0, action, "k-1")
    assert first.status_code == 200, first.text
    count = await event_count(client, table)
    assert count == first.json()["version"]
    again = await send(client, table, 0, action, "k-1")
    assert again.status_code == 200, again.text
    assert again.content == first.content
    assert await event_count(client, table) == count
    # The match moves on; the retry still gets the first answer.
    after = first.json()
    assert after["legal_actions"], "the bots answered: the person is to play again"
    moved = await send(client, table, 0, without_going_out(after), "k-2")
    assert moved.status_code == 200, moved.text
    late = await send(client, table, 0, action, "k-1")
    assert late.json() == first.json()
    assert late.content == first.content


@EVERY_SIZE
async def test_a_retry_after_the_match_moved_on_still_returns_the_first_response(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, LONG_GAME)
    rng = random.Random(5)
    view = await turn_view(client, table)
    seat, action = view["seat"], choose(view, rng)
    first = await send(client, table, seat, action, "first-move")
    assert first.status_code == 200
    for _ in range(6):  # every seat plays on
        await play_on(client, table, rng)
    count = await event_count(client, table)
    again = await send(client, table, seat, action, "first-move")
    assert again.content == first.content
    assert await event_count(client, table) == count


@EVERY_SIZE
async def test_the_same_key_with_another_command_is_refused(client: Client, seats: int) -> None:
    table = await create_at(client, seats, LONG_GAME)
    view = await turn_view(client, table)
    first = view["legal_actions"][0]
    # Another command: a second legal one, or a discard the seat cannot make yet.
    second = next(
        (a for a in view["legal_actions"] if a != first),
        {"type": "discard", "card": view["hand"][0]} if view["hand"] else None,
    )
    assert second is not None, view
    assert (await send(client, table, view["seat"], first, "k")).status_code == 200
    count = await event_count(client, table)
    response = await send(client, table, view["seat"], second, "k")
    assert_problem(response, 422, "idempotency-key-reused")
    assert await event_count(client, table) == count


@EVERY_SIZE
async def test_a_retried_refusal_is_the_same_refusal_even_after_the_match_moved_on(
    client: Client, seats: int
) -> None:
    table = await create_at(client, seats, LONG_GAME)
    view = await turn_view(client, table)
    seat, bad = view["seat"], {"type": "discard", "card": "Zz"}
    first = await send(client, table, seat, bad, "bad")
    assert_problem(first, 422, "invalid-notation")
    assert (await send(client, table, seat, view["legal_actions"][0], None)).status_code == 200
    again = await send(client, table, seat, bad, "bad")
    assert again.status_code == first.status_code
    assert again.json() == first.json()


@EVERY_SIZE
async def test_an_idempotency_key_belongs_to_one_seat(client: Client, seats: int) -> None:
    table = await create_at(client, seats, LONG_GAME)
    view = await turn_view(client, table)
    seat = view["seat"]
    first = await send(client, table, seat, view["legal_actions"][0], "shared")
    assert first.status_code == 200
    for _ in range(50):
        if any(v["legal_actions"] and s != seat for s, v in (await views(client, table)).items()):
            break
        await play_on(client, table)
    view = await turn_view(client, table, besides=seat)
    # Another seat's command under the same key is its own: applied, not a replay.
    other = await send(client, table, view["seat"], view["legal_actions"][0], "shared")
    assert other.status_code == 200, other.text
    assert other.json()["seat"] == view["seat"] != seat
    assert other.json()["version"] > view["version"]


@EVERY_SIZE
async def test_an_unprintable_or_overlong_key_is_refused(client: Client, seats: int) -> None:
    table = await create_at(client, seats, LONG_GAME)
    view = await turn_view(client, table)
    for key in ("x" * 201, "tab\there"):
        response = await send(client, table, view["seat"], view["legal_actions"][0], key)
        assert_problem(response, 400, "invalid-parameter")


@EVERY_SIZE
async def test_a_refused_command_is_not_remembered_under_its_key(
    client: Client, seats: int
) -> None:
    # Only an applied command is kept under its key; a refusal changed nothing, so a retry is
    # decided on the match as it is then.
    table = await create_at(client, seats, LONG_GAME)
    draw = {"type": "draw_from_stock"}
    view = await turn_view(client, table)
    for _ in range(50):
        if may_draw(view):
            break
        await play_on(client, table)
        view = await turn_view(client, table)
    # The seat to draw now: too early for it once it has drawn and discarded, until its next
    # turn.
    drawer = view["seat"]
    for _ in range(2):
        response = await send(client, table, drawer, without_going_out(view), None)
        assert response.status_code == 200, response.text
        view = response.json()
    early = await send(client, table, drawer, draw, "draw")
    assert_problem(early, 422, "not-your-turn")
    for _ in range(200):
        mine = (await views(client, table))[drawer]
        if may_draw(mine):
            break
        await play_on(client, table)
    else:
        raise AssertionError("the seat never had another turn")

    now = await send(client, table, drawer, draw, "draw")

    assert now.status_code == 200, now.text
    assert now.json()["version"] == mine["version"] + 1
    assert (await send(client, table, drawer, draw, "draw")).content == now.content


@EVERY_SIZE
async def test_a_refused_command_then_the_legal_one_under_the_same_key_applies(
    client: Client, seats: int
) -> None:
    table, view = await with_bots(client, seats, "random")
    illegal = {"type": "finish_layoff"}
    assert illegal not in view["legal_actions"]
    refused = await send(client, table, 0, illegal, "k-1")
    assert 400 <= refused.status_code < 500, refused.text
    applied = await send(client, table, 0, view["legal_actions"][0], "k-1")
    assert applied.status_code == 200, applied.text


@EVERY_SIZE
async def test_racing_retries_with_bots_apply_once(client: Client, seats: int) -> None:
    table, view = await with_bots(client, seats, "simple")
    action = view["legal_actions"][0]
    answers = await asyncio.gather(*(send(client, table, 0, action, "k-r") for _ in range(4)))
    assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
    applied = [a for a in answers if a.status_code == 200]
    assert applied
    assert all(a.content == applied[0].content for a in applied)
    assert await event_count(client, table) == applied[0].json()["version"]
