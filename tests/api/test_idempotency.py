"""Idempotent commands: a retry with the same Idempotency-Key returns the same response and
changes nothing, whatever happened to the match in between."""

from __future__ import annotations

import random
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import LONG_GAME, Table, choose, create_table, without_going_out
from tests.api.problems import assert_problem

Client = AsyncTestClient[Litestar]


async def turn_view(client: Client, table: Table) -> dict[str, Any]:
    """The view of the seat whose turn it is."""
    view: dict[str, Any] = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    if view["turn"] != 0:
        view = (await client.get(f"{table.path}/view", headers=table.headers(1))).json()
    return view


async def send(client: Client, table: Table, seat: int, body: Any, key: str | None) -> Any:
    headers = {**table.headers(seat), **({"Idempotency-Key": key} if key else {})}
    return await client.post(f"{table.path}/commands", json=body, headers=headers)


async def event_count(client: Client, table: Table) -> int:
    return len((await client.get(f"{table.path}/events")).json()["events"])


async def test_a_retry_returns_the_same_response_and_changes_nothing(client: Client) -> None:
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    action = view["legal_actions"][0]
    first = await send(client, table, view["seat"], action, "key-1")
    assert first.status_code == 200, first.text
    count = await event_count(client, table)
    again = await send(client, table, view["seat"], action, "key-1")
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    assert await event_count(client, table) == count


async def test_a_retry_after_the_match_moved_on_still_returns_the_first_response(
    client: Client,
) -> None:
    table = await create_table(client, **LONG_GAME)
    rng = random.Random(5)
    view = await turn_view(client, table)
    seat, action = view["seat"], choose(view, rng)
    first = await send(client, table, seat, action, "first-move")
    assert first.status_code == 200
    for _ in range(6):  # both seats play on
        view = await turn_view(client, table)
        response = await send(client, table, view["seat"], choose(view, rng), None)
        assert response.status_code == 200
    count = await event_count(client, table)
    again = await send(client, table, seat, action, "first-move")
    assert again.content == first.content
    assert await event_count(client, table) == count


async def test_the_same_key_with_another_command_is_refused(client: Client) -> None:
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    first, second = view["legal_actions"][:2]
    assert (await send(client, table, view["seat"], first, "k")).status_code == 200
    count = await event_count(client, table)
    response = await send(client, table, view["seat"], second, "k")
    assert_problem(response, 422, "idempotency-key-reused")
    assert await event_count(client, table) == count


async def test_a_retried_refusal_is_the_same_refusal_even_after_the_match_moved_on(
    client: Client,
) -> None:
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    seat, bad = view["seat"], {"type": "discard", "card": "Zz"}
    first = await send(client, table, seat, bad, "bad")
    assert_problem(first, 422, "invalid-notation")
    assert (await send(client, table, seat, view["legal_actions"][0], None)).status_code == 200
    again = await send(client, table, seat, bad, "bad")
    assert again.status_code == first.status_code
    assert again.json() == first.json()


async def test_an_idempotency_key_belongs_to_one_seat(client: Client) -> None:
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    seat = view["seat"]
    first = await send(client, table, seat, view["legal_actions"][0], "shared")
    assert first.status_code == 200
    view = await turn_view(client, table)
    while view["seat"] == seat:
        assert (await send(client, table, seat, view["legal_actions"][0], None)).status_code == 200
        view = await turn_view(client, table)
    # The other seat's command under the same key is its own: applied, not a replay.
    other = await send(client, table, 1 - seat, view["legal_actions"][0], "shared")
    assert other.status_code == 200, other.text
    assert other.json()["seat"] == 1 - seat
    assert other.json()["version"] > view["version"]


async def test_an_unprintable_or_overlong_key_is_refused(client: Client) -> None:
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    for key in ("x" * 201, "tab\there"):
        response = await send(client, table, view["seat"], view["legal_actions"][0], key)
        assert_problem(response, 400, "invalid-parameter")


async def test_a_refused_command_is_not_remembered_under_its_key(client: Client) -> None:
    # Only an applied command is kept under its key; a refusal changed nothing, so a retry is
    # decided on the match as it is then.
    table = await create_table(client, **LONG_GAME)
    view = await turn_view(client, table)
    while not any(a["type"] == "draw_from_stock" for a in view["legal_actions"]):
        assert (await send(client, table, view["seat"], without_going_out(view), None)).is_success
        view = await turn_view(client, table)
    waiting, draw = 1 - view["seat"], {"type": "draw_from_stock"}
    early = await send(client, table, waiting, draw, "draw")
    assert_problem(early, 422, "not-your-turn")
    while view["seat"] != waiting:
        assert (await send(client, table, view["seat"], without_going_out(view), None)).is_success
        view = await turn_view(client, table)

    now = await send(client, table, waiting, draw, "draw")

    assert now.status_code == 200, now.text
    assert now.json()["version"] == view["version"] + 1
    assert (await send(client, table, waiting, draw, "draw")).content == now.content
