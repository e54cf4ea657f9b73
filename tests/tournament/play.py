"""A quick player for both seats of a match, through the HTTP API, from each seat's view.

It knocks whenever a knock is listed and otherwise discards what leaves the least deadwood,
so a hand ends in a handful of turns and a short match in a few dozen commands.
"""

from __future__ import annotations

import asyncio
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from domain import deadwood

Json = dict[str, Any]
Client = AsyncTestClient[Litestar]

SHORT_MATCH = {"game_target": 40, "match_target": 0}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def in_the_feed(client: Client, key: str, *match_ids: str) -> None:
    """Until ``key``'s feed lists every event these matches have now. The feed holds back what
    committed after a transaction still running (the app's own background work) until that
    ends, so a page read at once can miss the last command."""
    for match_id in match_ids:
        events = (await client.get(f"/matches/{match_id}/events")).json()["events"]
        params: dict[str, str | int] = {"match_id": match_id, "limit": 1000}
        for _ in range(300):
            page = await client.get("/feed", params=params, headers=bearer(key))
            assert page.status_code == 200, page.text
            if len(page.json()["entries"]) >= len(events):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the feed never listed all of match {match_id}")


class Table:
    def __init__(self, match_id: str, tokens: dict[int, str]) -> None:
        self.match_id = match_id
        self.tokens = tokens

    def headers(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])


async def create_table(
    client: Client, *, operator_key: str | None = None, options: Json | None = None, **extra: Any
) -> Table:
    headers = bearer(operator_key) if operator_key else {}
    body = {"options": options or SHORT_MATCH, **extra}
    response = await client.post("/matches", json=body, headers=headers)
    assert response.status_code == 201, response.text
    created = response.json()
    return Table(created["match_id"], {s["seat"]: s["token"] for s in created["seats"]})


def choose(view: Json) -> Json:
    actions: list[Json] = view["legal_actions"]
    by_type: dict[str, list[Json]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    for kind in ("big_gin", "knock", "lay_off", "finish_layoff", "draw_from_stock"):
        if kind in by_type:
            return by_type[kind][0]
    if "discard" in by_type:
        hand = view["hand"]
        return min(by_type["discard"], key=lambda a: deadwood([c for c in hand if c != a["card"]]))
    return actions[0]


async def play_commands(client: Client, table: Table, count: int | None = None) -> Json:
    """Play ``count`` commands (None: to the end of the match); the last view of seat 0."""
    view = await seat_view(client, table, 0)
    played = 0
    while view["phase"] != "match_over" and (count is None or played < count):
        seat = view["turn"] if view["turn"] is not None else 0
        view = await seat_view(client, table, seat)
        response = await client.post(
            f"/matches/{table.match_id}/commands", json=choose(view), headers=table.headers(seat)
        )
        assert response.status_code == 200, response.text
        view = response.json()
        played += 1
        assert played < 3000, "the match does not end"
    return await seat_view(client, table, 0)


async def seat_view(client: Client, table: Table, seat: int) -> Json:
    response = await client.get(f"/matches/{table.match_id}/view", headers=table.headers(seat))
    assert response.status_code == 200, response.text
    view: Json = response.json()
    return view
