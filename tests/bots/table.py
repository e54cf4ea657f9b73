"""A person against a bot over the API: create the match, read the person's view, play."""

from __future__ import annotations

import random
from typing import Any

from bench.players import LOAD_TEST, choose

Json = dict[str, Any]

SHORT_MATCH = {"game_target": 25, "match_target": 0}
# A bot dealt a good hand may knock on its first turn, and one hand can win a game to 25: a
# test that looks at a match still under way plays to a target no hand reaches.
LONG_MATCH = {"game_target": 10_000, "match_target": 0}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class BotTable:
    """A match with a bot on ``bot_seat`` and a person, holding the only token, on the other."""

    def __init__(self, client: Any, match_id: str, person: int, token: str) -> None:
        self.client = client
        self.match_id = match_id
        self.person = person
        self.token = token

    @property
    def path(self) -> str:
        return f"/matches/{self.match_id}"

    async def view(self) -> Json:
        response = await self.client.get(f"{self.path}/view", headers=bearer(self.token))
        assert response.status_code == 200, response.text
        view: Json = response.json()
        return view

    async def play(self, action: Json) -> Json:
        response = await self.client.post(
            f"{self.path}/commands", json=action, headers=bearer(self.token)
        )
        assert response.status_code == 200, response.text
        view: Json = response.json()
        return view

    async def play_to_the_end(self, rng: random.Random, limit: int = 3000) -> list[Json]:
        """Every view the person got in answer to a command, to the end of the match."""
        answers: list[Json] = []
        view = await self.view()
        while view["phase"] != "match_over":
            assert len(answers) < limit, "the match does not end"
            view = await self.play(choose(view, rng, LOAD_TEST))
            answers.append(view)
        return answers


async def create_bot_match(
    client: Any, level: str = "strong", bot_seat: int = 1, options: Json | None = None
) -> BotTable:
    bots: list[str | None] = [None, None]
    bots[bot_seat] = level
    body = {"options": options or SHORT_MATCH, "bots": bots}
    response = await client.post("/matches", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    (seat,) = created["seats"]
    return BotTable(client, created["match_id"], seat["seat"], seat["token"])
