"""What a browser needs: the page at ``/``, CORS only for the origins configured (same origin
needs none), and large responses compressed."""

from __future__ import annotations

import random

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.conftest import settings_for
from tests.api.players import create_table, play_match
from tests.api.problems import assert_problem
from web.app import create_app
from web.environment import SettingError
from web.settings import Settings

Client = AsyncTestClient[Litestar]
ALLOWED = "https://app.example"


async def test_the_page_is_served_at_the_root(client: Client) -> None:
    response = await client.get("/")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module"' in response.text


async def test_no_other_origin_is_allowed_by_default(client: Client) -> None:
    response = await client.get("/health", headers={"Origin": ALLOWED})

    assert "access-control-allow-origin" not in response.headers


async def test_a_configured_origin_may_call_the_api(database_url: str) -> None:
    settings = msgspec.structs.replace(settings_for(database_url), cors_origins=(ALLOWED,))
    async with AsyncTestClient(app=create_app(settings)) as client:
        preflight = await client.options(
            "/matches",
            headers={
                "Origin": ALLOWED,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            },
        )
        assert preflight.status_code in (200, 204), preflight.text
        assert preflight.headers["access-control-allow-origin"] == ALLOWED

        allowed = await client.get("/health", headers={"Origin": ALLOWED})
        assert allowed.headers["access-control-allow-origin"] == ALLOWED
        assert "ETag" in allowed.headers["access-control-expose-headers"]

        other = await client.get("/health", headers={"Origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in other.headers

        refused = await client.options(
            "/matches",
            headers={
                "Origin": "https://elsewhere.example",
                "Access-Control-Request-Method": "POST",
            },
        )
        assert_problem(refused, 403, "origin-not-allowed")
        assert "access-control-allow-origin" not in refused.headers


@pytest.mark.parametrize(
    "value", ["app.example", "ftp://app.example", "https://app.example/page", "https://"]
)
def test_an_origin_setting_that_is_no_origin_is_refused(value: str) -> None:
    with pytest.raises(SettingError, match="GIN_CORS_ORIGINS"):
        Settings.from_env({"GIN_CORS_ORIGINS": value})


def test_origins_are_read_from_a_comma_separated_list() -> None:
    settings = Settings.from_env({"GIN_CORS_ORIGINS": "https://a.example, http://b.example:8080/"})

    assert settings.cors_origins == ("https://a.example", "http://b.example:8080")
    assert Settings.from_env(settings.to_env()).cors_origins == settings.cors_origins


@pytest.mark.parametrize("encoding", ["br", "gzip"])
async def test_large_responses_are_compressed(client: Client, encoding: str) -> None:
    table = await create_table(client, game_target=1, match_target=0)
    await play_match(client, table, random.Random(3))

    response = await client.get(
        f"{table.path}/events", headers={**table.headers(0), "Accept-Encoding": encoding}
    )

    assert response.status_code == 200
    assert response.headers["content-encoding"] == encoding
    assert response.json()["events"]  # the client decoded it
