"""Matches of two, three or four seats created and played over HTTP the same way: every seat
a person with a token, moves chosen at random among the legal actions of whichever seats
have any (two at once at four seats, one at each table)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from tests.api.players import HttpClient, Json, Table, bearer, choose

# Every capability is tested at each table size.
EVERY_SIZE = pytest.mark.parametrize("seats", [2, 3, 4])
# One game to 10: a few hands at every table size.
QUICK = {"game_target": 10, "match_target": 0}
# Sides keep the scores: each seat at two and three seats, partners opposite at four.
SIDES = {2: [[0], [1]], 3: [[0], [1], [2]], 4: [[0, 2], [1, 3]]}


async def create_at(
    client: HttpClient, seats: int, options: Json | None = None, **body: Any
) -> Table:
    response = await client.post(
        "/matches", json={"players": seats, "options": options or QUICK, **body}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    return Table(created["match_id"], {s["seat"]: s["token"] for s in created["seats"]})


async def views(client: HttpClient, table: Table) -> dict[int, Json]:
    found = {}
    for seat, token in table.tokens.items():
        response = await client.get(f"{table.path}/view", headers=bearer(token))
        assert response.status_code == 200, response.text
        found[seat] = response.json()
    return found


async def play_one(
    client: HttpClient, table: Table, rng: random.Random, seen: dict[int, Json] | None = None
) -> httpx.Response:
    """One legal command by one of the seats that has any (in ``seen``, their views, if
    just read); its (accepted) response."""
    seen = seen or await views(client, table)
    movers = [seat for seat, view in seen.items() if view["legal_actions"]]
    assert movers, seen
    seat = rng.choice(movers)
    response = await client.post(
        f"{table.path}/commands", json=choose(seen[seat], rng), headers=table.headers(seat)
    )
    assert response.status_code == 200, response.text
    return response


async def play_out(
    client: HttpClient, table: Table, rng: random.Random, *, limit: int = 3_000
) -> list[httpx.Response]:
    """Every command's response, until the match is over."""
    responses: list[httpx.Response] = []
    for _ in range(limit):
        seen = await views(client, table)
        if all(view["phase"] == "match_over" for view in seen.values()):
            return responses
        responses.append(await play_one(client, table, rng, seen))
    raise AssertionError(f"the match did not end within {limit} commands")


def seat_phase(view: Json) -> str:
    """The phase of the hand the viewing seat plays: at three and four seats, its table's."""
    table = view.get("table")
    if "tables" not in view or table is None:
        return str(view["phase"])
    (played,) = [t["view"] for t in view["tables"] if t["table"] == table]
    return str(played["phase"])
