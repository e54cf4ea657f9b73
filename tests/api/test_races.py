"""Races: two requests for the same seat at once (two phones), at every table size. One command
is applied; the other gets a conflict, a refusal on the new state, or the idempotent replay;
never both are applied, and never a 500."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from tests.api.any_size import EVERY_SIZE, create_at, seat_phase
from tests.api.conftest import Asgi
from tests.api.players import LONG_GAME, Table, choose

ROUNDS = 25


async def seat_to_act(http: httpx.AsyncClient, table: Table) -> dict[str, Any]:
    for seat in sorted(table.tokens):
        view: dict[str, Any] = (
            await http.get(f"{table.path}/view", headers=table.headers(seat))
        ).json()
        if view["legal_actions"]:
            return view
    raise AssertionError("nobody may act")


async def versions(http: httpx.AsyncClient, table: Table) -> list[int]:
    feed = (await http.get(f"{table.path}/events")).json()
    return [envelope["version"] for envelope in feed["events"]]


def winner_of(responses: list[httpx.Response]) -> dict[str, Any]:
    """The one response that applied its command; the other is a problem, never a 500."""
    statuses = sorted(response.status_code for response in responses)
    assert statuses[0] == 200, [r.text for r in responses]
    assert statuses[1] in (409, 422), [r.text for r in responses]
    loser = next(r for r in responses if r.status_code != 200)
    assert loser.headers["content-type"] == "application/problem+json"
    winner: dict[str, Any] = next(r for r in responses if r.status_code == 200).json()
    return winner


async def at_once(
    http: httpx.AsyncClient,
    table: Table,
    seat: int,
    bodies: list[Any],
    headers: list[dict[str, str]],
) -> list[httpx.Response]:
    return list(
        await asyncio.gather(
            *(
                http.post(
                    f"{table.path}/commands", json=body, headers={**table.headers(seat), **extra}
                )
                for body, extra in zip(bodies, headers, strict=True)
            )
        )
    )


@EVERY_SIZE
async def test_two_different_commands_at_once_apply_exactly_one(asgi: Asgi, seats: int) -> None:
    http, rng = asgi.client, random.Random(11 * seats)
    table = await create_at(http, seats, LONG_GAME)
    conflicts = 0
    for _ in range(ROUNDS):
        view = await seat_to_act(http, table)
        # Laying off, a seat sends several commands in a row: two of them, one after the
        # other, are both legal, so only a real overlap could refuse one. Played, not raced.
        if len(view["legal_actions"]) < 2 or seat_phase(view) == "layoff":
            played = await http.post(
                f"{table.path}/commands",
                json=choose(view, rng),
                headers=table.headers(view["seat"]),
            )
            assert played.status_code == 200, played.text
            continue
        first, second = rng.sample(view["legal_actions"], 2)
        before = await versions(http, table)
        responses = await at_once(http, table, view["seat"], [first, second], [{}, {}])
        winner = winner_of(responses)
        conflicts += any(r.status_code == 409 for r in responses)
        after = await versions(http, table)
        # The winner's events end the log: the loser's command was not applied after them.
        assert after[: len(before)] == before
        assert after[-1] == winner["version"]
    assert conflicts, "the requests never overlapped, so this race was not run"


@EVERY_SIZE
async def test_two_phones_with_the_same_view_race_and_one_is_told_it_is_stale(
    asgi: Asgi, seats: int
) -> None:
    http, rng = asgi.client, random.Random(12 * seats)
    table = await create_at(http, seats, LONG_GAME)
    for _ in range(ROUNDS):
        view = await seat_to_act(http, table)
        etag = f'"v{view["version"]}-s{view["seat"]}"'
        bodies = [choose(view, rng), choose(view, rng)]
        responses = await at_once(http, table, view["seat"], bodies, [{"If-Match": etag}] * 2)
        statuses = sorted(response.status_code for response in responses)
        assert statuses == [200, 412], [r.text for r in responses]


@EVERY_SIZE
async def test_the_same_command_twice_at_once_with_one_key_is_applied_once(
    asgi: Asgi, seats: int
) -> None:
    http, rng = asgi.client, random.Random(13 * seats)
    table = await create_at(http, seats, LONG_GAME)
    for round_number in range(ROUNDS):
        view = await seat_to_act(http, table)
        body = choose(view, rng)
        key = {"Idempotency-Key": f"tap-{round_number}"}
        before = await versions(http, table)
        responses = await at_once(http, table, view["seat"], [body, body], [key, key])
        ok = [r for r in responses if r.status_code == 200]
        assert ok, [r.text for r in responses]
        for response in responses:
            assert response.status_code in (200, 409), response.text
        assert all(r.content == ok[0].content for r in ok), "a replay differs from the original"
        after = await versions(http, table)
        assert after[-1] == ok[0].json()["version"]
        assert len(after) > len(before)


@EVERY_SIZE
async def test_the_same_command_twice_at_once_without_a_key_is_applied_once(
    asgi: Asgi, seats: int
) -> None:
    http, rng = asgi.client, random.Random(14 * seats)
    table = await create_at(http, seats, LONG_GAME)
    for _ in range(ROUNDS):
        view = await seat_to_act(http, table)
        body = choose(view, rng)
        responses = await at_once(http, table, view["seat"], [body, body], [{}, {}])
        winner = winner_of(responses)
        assert (await versions(http, table))[-1] == winner["version"]
