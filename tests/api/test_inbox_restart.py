"""An inbox resumed after a server restart misses nothing: notices are read from the players'
log in the database, numbered without gaps, and what was committed while no projector ran is
projected by the next server from its cursor."""

from __future__ import annotations

import random

from tests.api.accounts import inbox, pair, sign_up
from tests.api.conftest import served
from tests.api.players import bearer, choose


async def test_an_inbox_resumed_after_a_restart_misses_nothing(fresh_database_url: str) -> None:
    async with served(fresh_database_url) as first:
        host = await sign_up(first.client, "Host")
        guest = await sign_up(first.client, "Guest")
        match_id = await pair(first.client, host, guest)
        seen = await inbox(first.app, host["credential"], 1)
        # Moves committed right before the server stops: its projector may not see them.
        rng = random.Random(7)
        for _ in range(6):
            view = (
                await first.client.get(
                    f"/matches/{match_id}/view", headers=bearer(host["credential"])
                )
            ).json()
            player = host if view["turn"] == view["seat"] else guest
            view = (
                await first.client.get(
                    f"/matches/{match_id}/view", headers=bearer(player["credential"])
                )
            ).json()
            sent = await first.client.post(
                f"/matches/{match_id}/commands",
                json=choose(view, rng),
                headers=bearer(player["credential"]),
            )
            assert sent.status_code == 200, sent.text
    async with served(fresh_database_url) as second:
        everything = await inbox(second.app, host["credential"], 2)
        resumed = await inbox(second.app, host["credential"], 1, last_event_id=seen[-1]["id"])
    assert [m["id"] for m in everything] == [1, 2]
    assert everything[0] == seen[0]
    assert resumed == everything[1:]
    assert resumed[0]["event"] == "your_turn"
