"""Matches over HTTP for the audit tests: created with a commitment and both seats' entropy,
played by ``tests.api.players.choose`` until a view says stop."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tests.api.players import HttpClient, Json, Table, choose

ENTROPY = ["seat zero's dice: 4 1 6", "seat one's coin: heads"]


class FairTable(Table):
    def __init__(self, match_id: str, tokens: dict[int, str], commitment: str) -> None:
        super().__init__(match_id, tokens)
        self.commitment = commitment


async def create_fair_table(client: HttpClient, **options: Any) -> FairTable:
    """A match whose seats gave entropy after the server committed to its seeds."""
    committed = await client.post("/commitments")
    assert committed.status_code == 201, committed.text
    commitment = committed.json()["commitment"]
    body = {"options": options, "entropy": ENTROPY, "commitment": commitment}
    response = await client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["commitment"] == commitment
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    return FairTable(created["match_id"], tokens, commitment)


async def view_of(client: HttpClient, table: Table, seat: int) -> Json:
    response = await client.get(f"{table.path}/view", headers=table.headers(seat))
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


async def play_until(
    client: HttpClient,
    table: Table,
    rng: random.Random,
    stop: Callable[[Json], bool] = lambda view: False,
    max_commands: int = 5000,
    chooser: Callable[[Json], Json] | None = None,
) -> Json:
    """Play until ``stop`` holds for the view of the seat to move, or the match is over; that
    view (or seat 0's, at the end). Moves are ``choose``'s unless a ``chooser`` is given."""
    view = await view_of(client, table, 0)
    for _ in range(max_commands):
        if view["phase"] == "match_over":
            return view
        if view["turn"] != view["seat"]:
            view = await view_of(client, table, view["turn"])
        if stop(view):
            return view
        response = await client.post(
            f"{table.path}/commands",
            json=chooser(view) if chooser else choose(view, rng),
            headers=table.headers(view["seat"]),
        )
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError(f"the match did not end within {max_commands} commands")
