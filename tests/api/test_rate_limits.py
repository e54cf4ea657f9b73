"""Rate limits: over a limit the answer is 429 problem+json with Retry-After and nothing is
done; the next window serves again. The middleware's clock is the test's, moved by hand."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import msgspec
import pytest
from litestar import Litestar
from litestar.middleware import rate_limit
from litestar.testing import AsyncTestClient

from tests.api.conftest import settings_for
from tests.api.players import ONE_GAME, create_table
from tests.api.problems import assert_problem
from web import rate_limits
from web.app import create_app
from web.rate_limits import NO_LIMITS, RateLimits
from web.settings import Settings

LIMITS = RateLimits(
    create_per_address=3, create_per_credential=0, commands_per_address=0, commands_per_credential=2
)


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(rate_limit, "time", fake)
    monkeypatch.setattr(rate_limits, "time", fake)
    return fake


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    settings = msgspec.structs.replace(settings_for(database_url), rate_limits=LIMITS)
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def test_creating_over_the_limit_is_refused_until_the_next_window(
    client: AsyncTestClient[Litestar], clock: Clock
) -> None:
    for n in range(2):
        made = await client.post("/players", json={"display_name": f"P{n}"})
        assert made.status_code == 201, made.text
    await create_table(client)  # the third creation of any kind
    refused = await client.post("/players", json={"display_name": "P3"})
    assert_problem(refused, 429, "too-many-requests")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    also = await client.post("/matches", json={"options": ONE_GAME})
    assert_problem(also, 429, "too-many-requests")
    clock.now += 60
    again = await client.post("/players", json={"display_name": "P3"})
    assert again.status_code == 201, again.text


async def test_commands_are_limited_per_credential(
    client: AsyncTestClient[Litestar], clock: Clock
) -> None:
    table = await create_table(client)
    mover = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()["turn"]
    other = 1 - mover
    bad = {"type": "discard", "card": "As"}  # refused by the rules, but counted all the same
    for _ in range(2):
        answer = await client.post(f"{table.path}/commands", json=bad, headers=table.headers(other))
        assert answer.status_code == 422, answer.text
    refused = await client.post(f"{table.path}/commands", json=bad, headers=table.headers(other))
    assert_problem(refused, 429, "too-many-requests")
    assert "Retry-After" in refused.headers
    # The other seat's token is counted on its own; reads are never counted.
    view = (await client.get(f"{table.path}/view", headers=table.headers(mover))).json()
    action = view["legal_actions"][0]
    sent = await client.post(f"{table.path}/commands", json=action, headers=table.headers(mover))
    assert sent.status_code == 200, sent.text
    clock.now += 60
    answer = await client.post(f"{table.path}/commands", json=bad, headers=table.headers(other))
    assert answer.status_code == 422, answer.text


def test_the_service_ships_with_every_limit_on_and_each_can_be_set() -> None:
    shipped = Settings.from_env({}).rate_limits
    assert shipped == RateLimits()
    assert all(per_minute > 0 for per_minute in msgspec.structs.astuple(shipped))
    assert Settings.from_env(LIMITS.to_env()).rate_limits == LIMITS
    assert Settings.from_env(NO_LIMITS.to_env()).rate_limits == NO_LIMITS
    assert Settings.from_env(Settings(rate_limits=LIMITS).to_env()).rate_limits == LIMITS


async def test_an_honest_player_is_never_limited_by_default(database_url: str) -> None:
    """A player signs up, creates a match against a bot and plays it to its end at once, far
    faster than a person: nothing is refused."""
    shipped = msgspec.structs.replace(settings_for(database_url), rate_limits=RateLimits())
    async with AsyncTestClient(app=create_app(shipped)) as client:
        signed = (await client.post("/players", json={"display_name": "Quick"})).json()
        headers = {"Authorization": f"Bearer {signed['credential']}"}
        made = await client.post(
            "/players/me/matches", json={"options": ONE_GAME, "bot": "simple"}, headers=headers
        )
        assert made.status_code == 201, made.text
        path = f"/matches/{made.json()['match_id']}"
        view = (await client.get(f"{path}/view", headers=headers)).json()
        sent = 0
        for _ in range(20_000):  # the bot answers within moments
            if view["phase"] == "match_over":
                break
            if view["turn"] != view["seat"]:
                await asyncio.sleep(0.001)
                view = (await client.get(f"{path}/view", headers=headers)).json()
                continue
            answer = await client.post(
                f"{path}/commands", json=view["legal_actions"][0], headers=headers
            )
            assert answer.status_code == 200, answer.text
            view = answer.json()
            sent += 1
        assert view["phase"] == "match_over"
        assert sent > 0
