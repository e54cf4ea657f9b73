"""Quick match over two server processes: 100 players asking at once, half of them on each
process, pair into exactly 50 matches, each player in exactly one."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest

from bench.servers import gin_serve
from tests.api.players import bearer

PLAYERS = 100


@pytest.mark.slow
async def test_a_hundred_players_on_two_processes_pair_into_fifty_matches(
    fresh_database_url: str,
) -> None:
    with gin_serve(fresh_database_url) as a, gin_serve(fresh_database_url) as b:
        limits = httpx.Limits(max_connections=PLAYERS)
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=60, limits=limits) as on_a,
            httpx.AsyncClient(base_url=b.url, timeout=60, limits=limits) as on_b,
        ):
            servers = [on_a, on_b]
            credentials = []
            for n in range(PLAYERS):
                response = await servers[n % 2].post("/players", json={"display_name": f"P{n}"})
                assert response.status_code == 201, response.text
                credentials.append(response.json()["credential"])

            async def ask(n: int) -> dict[str, object]:
                response = await servers[n % 2].post(
                    "/players/me/quick-match",
                    json={"options": {"game_target": 1}},
                    headers=bearer(credentials[n]),
                )
                assert response.status_code == 200, response.text
                answer: dict[str, object] = response.json()
                return answer

            answers = await asyncio.gather(*(ask(n) for n in range(PLAYERS)))
            assert Counter(a["status"] for a in answers) == {"paired": 50, "waiting": 50}
            seats = {}
            for n in range(PLAYERS):
                # Asked on the other process: every process sees the same queue.
                response = await servers[(n + 1) % 2].get(
                    "/players/me/quick-match", headers=bearer(credentials[n])
                )
                body = response.json()
                assert body["status"] == "paired", body
                seats[n] = (body["match_id"], body["seat"])
            by_match = Counter(match_id for match_id, _ in seats.values())
            assert len(by_match) == PLAYERS // 2
            assert set(by_match.values()) == {2}
            for n, (match_id, seat) in seats.items():
                view = await servers[n % 2].get(
                    f"/matches/{match_id}/view", headers=bearer(credentials[n])
                )
                assert view.status_code == 200, view.text
                assert view.json()["seat"] == seat
