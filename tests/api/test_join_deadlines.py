"""Join deadlines over HTTP at three and four seats (docs/api.md, "How a match ends"): the
view says until when the invited seats may join, and stops saying it once they all have."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import bearer

Client = AsyncTestClient[Litestar]


@pytest.mark.parametrize("seats", [3, 4])
async def test_the_view_shows_the_join_deadline_until_every_invited_seat_is_in(
    client: Client, seats: int
) -> None:
    options = {"game_target": 10, "match_target": 0, "join_seconds": 600}
    response = await client.post(
        "/matches", json={"players": seats, "options": options, "invite_seats": [1, 2]}
    )
    assert response.status_code == 201, response.text
    created = response.json()
    path = f"/matches/{created['match_id']}"
    token = bearer(created["seats"][0]["token"])

    waiting = (await client.get(f"{path}/view", headers=token)).json()
    left = datetime.fromisoformat(waiting["join_due_at"]) - datetime.now(UTC)
    assert timedelta(seconds=500) < left <= timedelta(seconds=600)
    public = (await client.get(path)).json()
    for invite in created["invites"]:
        joined = await client.post("/matches/join", json={"invite_code": invite["invite_code"]})
        assert joined.status_code == 201, joined.text

    playing = (await client.get(f"{path}/view", headers=token)).json()
    assert playing["phase"] == "play"
    assert playing["join_due_at"] is None
    assert public["status"] == "waiting_for_opponent"
