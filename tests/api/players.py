"""Clients that play matches over HTTP by choosing among the legal actions a view lists.

The choice is the shared random player's (``bench.players``), with its quick lean towards
going out (a knock when one is listed, most often the discard that leaves the least deadwood)
so that matches end in a few dozen commands.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from bench.players import QUICK
from bench.players import choose as choose_leaning

Json = dict[str, Any]

# One game to 100: a few dozen commands seldom finish it, a few hundred usually do.
ONE_GAME = {"game_target": 100, "match_target": 0}
# No hand scores more than 129 points (big gin over 98 deadwood) or takes fewer than two
# commands, so a game to 10,000 cannot end within the 150 commands a test might play.
LONG_GAME = {"game_target": 10_000, "match_target": 0}


# Litestar's test client is an httpx client too.
HttpClient = httpx.AsyncClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A match created over HTTP, with both seats' tokens."""

    def __init__(self, match_id: str, tokens: dict[int, str]) -> None:
        self.match_id = match_id
        self.tokens = tokens

    def headers(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])

    @property
    def path(self) -> str:
        return f"/matches/{self.match_id}"


async def create_table(client: HttpClient, players: int = 2, **options: Any) -> Table:
    """A match of ``players`` seats, every one a token's (no bots)."""
    response = await client.post(
        "/matches", json={"players": players, "options": options or ONE_GAME}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    return Table(body["match_id"], {seat["seat"]: seat["token"] for seat in body["seats"]})


def choose(view: Json, rng: random.Random) -> Json:
    """One of the view's legal actions, ready to send."""
    return choose_leaning(view, rng, QUICK)


def without_going_out(view: Json) -> Json:
    """A move that cannot end the hand: the upcard is passed, every draw is from the stock, and
    every turn ends with a discard, never a knock (so a test can hold a hand open)."""
    actions: list[Json] = view["legal_actions"]
    for kind in ("choose_dealer", "pass_upcard", "draw_from_stock", "discard"):
        for action in actions:
            if action["type"] == kind:
                return action
    raise AssertionError(f"no move that keeps the hand going in {actions}")


Observer = Callable[[int, Json], Awaitable[None]]


async def play_match(
    client: HttpClient,
    table: Table,
    rng: random.Random,
    *,
    before_command: Observer | None = None,
    max_commands: int = 5000,
) -> Json:
    """Play to the end with random legal actions; the final view of seat 0."""
    view: Json = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    for _ in range(max_commands):
        if view["phase"] == "match_over":
            return view
        seat = view["turn"]
        if seat != view["seat"]:
            response = await client.get(f"{table.path}/view", headers=table.headers(seat))
            assert response.status_code == 200, response.text
            view = response.json()
        action = choose(view, rng)
        if before_command is not None:
            await before_command(seat, action)
        response = await client.post(
            f"{table.path}/commands", json=action, headers=table.headers(seat)
        )
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError(f"the match did not end within {max_commands} commands")
