"""A refusal made by a middleware (a rate limit's 429, a bad query's 400) is logged and counted
with the status the client was sent, not as a server error."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.conftest import settings_for
from tests.api.problems import assert_problem
from tests.api.test_metrics import samples
from tests.request_log_lines import Lines
from web.app import create_app
from web.rate_limits import RateLimits

Client = AsyncTestClient[Litestar]
ONE_CREATION = RateLimits(
    create_per_address=1, create_per_credential=0, commands_per_address=0, commands_per_credential=0
)


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[Client]:
    settings = msgspec.structs.replace(settings_for(database_url), rate_limits=ONE_CREATION)
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


def counted(text: str, route: str) -> dict[str, float]:
    """``gin_http_requests_total`` for ``route``, by status."""
    return {
        dict(labels)["status"]: value
        for (name, labels), value in samples(text).items()
        if name == "gin_http_requests_total" and dict(labels)["route"] == route
    }


async def test_a_rate_limited_request_is_logged_and_counted_as_429(
    client: Client, log_lines: Lines
) -> None:
    made = await client.post("/players", json={"display_name": "P0"})
    assert made.status_code == 201, made.text
    refused = await client.post("/players", json={"display_name": "P1"})
    assert_problem(refused, 429, "too-many-requests")

    entries = [json.loads(line) for line in log_lines.lines]
    assert [(e["path"], e["status"]) for e in entries] == [("/players", 201), ("/players", 429)]
    by_status = counted((await client.get("/metrics")).text, "/players")
    assert by_status == {"201": 1.0, "429": 1.0}


async def test_a_bad_query_refused_before_its_route_is_logged_and_counted_as_400(
    client: Client, log_lines: Lines
) -> None:
    match_id = "00000000-0000-4000-8000-000000000000"
    refused = await client.get(f"/matches/{match_id}/events?after=1e3")
    assert_problem(refused, 400, "invalid-parameter")

    entries = [json.loads(line) for line in log_lines.lines]
    assert [e["status"] for e in entries] == [400]
    by_status = counted((await client.get("/metrics")).text, "/matches/{match_id}/events")
    assert by_status == {"400": 1.0}
