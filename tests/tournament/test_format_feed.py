"""Three- and four-player matches and the readers of two-player matches: the global feed
passes their events by (it lists two-player events only), and reading it never trips on
them."""

from __future__ import annotations

import pytest

from service.tournament.operators import OperatorKeys
from tests.api.test_formats import create
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, bearer, create_table, play_commands
from tests.tournament.test_feed import read_feed


@pytest.fixture(scope="module")
async def feed_key(keys: OperatorKeys) -> str:
    return await new_key(keys, "feed reader", "feed:read", "feed:all")


async def test_the_feed_lists_two_player_events_and_passes_format_matches_by(
    client: Client, feed_key: str
) -> None:
    _, start = await read_feed(client, feed_key)
    created = await create(client, players=4, bots=["random", None, "random", "random"])
    (seat,) = created["seats"]
    path = f"/matches/{created['match_id']}"
    view = (await client.get(f"{path}/view", headers=bearer(seat["token"]))).json()
    for _ in range(6):
        if not view["legal_actions"]:
            break
        response = await client.post(
            f"{path}/commands", json=view["legal_actions"][0], headers=bearer(seat["token"])
        )
        assert response.status_code == 200, response.text
        view = response.json()
    table = await create_table(client)
    await play_commands(client, table, 4)
    entries, _ = await read_feed(client, feed_key, after=start)
    assert {entry["match_id"] for entry in entries} == {table.match_id}
