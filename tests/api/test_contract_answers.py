"""The server answers what its document declares: a body is decoded strictly against its
schema, a query parameter a route does not declare is refused rather than ignored, and
``OPTIONS`` lists every method of its path."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import bearer, create_table
from tests.api.problems import assert_problem
from web.app import create_app
from web.settings import Settings

Client = AsyncTestClient[Litestar]
ONE_MATCH: dict[str, Any] = {"matches": [{}]}


async def test_an_empty_round_is_refused_as_such(client: Client) -> None:
    response = await client.post("/rounds", json={"options": {}, "matches": []})

    problem = assert_problem(response, 422, "invalid-request")
    assert "matches" in problem["detail"]
    assert "length >= 1" in problem["detail"]


@pytest.mark.parametrize("value", [0, 1, "true", None])
@pytest.mark.parametrize("path", ["/matches", "/rounds"])
async def test_a_flag_that_is_not_a_boolean_is_refused_naming_it(
    client: Client, path: str, value: object
) -> None:
    body = {"options": {"oklahoma": value}, **(ONE_MATCH if path == "/rounds" else {})}

    response = await client.post(path, json=body)

    problem = assert_problem(response, 422, "invalid-request")
    assert "oklahoma" in problem["detail"]
    assert "bool" in problem["detail"]


async def test_a_boolean_flag_is_taken(client: Client) -> None:
    response = await client.post("/matches", json={"options": {"oklahoma": True}})
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "query",
    # round_id and external_player_id are filters it takes; these near misses are not
    ["round=00000000-0000-0000-0000-000000000000", "player_id=p1"],
)
async def test_an_unknown_filter_on_the_operator_list_is_refused(
    client: Client, query: str
) -> None:
    response = await client.get(f"/operator/matches?{query}")

    problem = assert_problem(response, 400, "invalid-parameter")
    assert query.split("=")[0] in problem["detail"]


async def test_an_unknown_query_parameter_is_refused_where_declared_ones_are_taken(
    client: Client,
) -> None:
    table = await create_table(client)
    events = f"{table.path}/events"

    taken = await client.get(f"{events}?after=0", headers=table.headers(0))
    refused = await client.get(f"{events}?after=0&afterr=3", headers=table.headers(0))

    assert taken.status_code == 200, taken.text
    problem = assert_problem(refused, 400, "invalid-parameter")
    assert "'afterr'" in problem["detail"]
    assert "after" in problem["detail"].split("takes:")[1]  # and says what the route takes


async def test_a_token_in_a_url_is_refused_on_any_route(client: Client) -> None:
    table = await create_table(client)
    response = await client.get(f"{table.path}/view?token={table.tokens[0]}")

    problem = assert_problem(response, 400, "invalid-parameter")
    assert table.tokens[0] not in problem["detail"]
    assert "Authorization" in problem["detail"]


async def test_a_probe_refuses_a_query_it_does_not_take(client: Client) -> None:
    problem = assert_problem(await client.get("/health/live?verbose=1"), 400, "invalid-parameter")
    assert "'verbose'" in problem["detail"]


def test_every_operation_declares_the_400_an_unknown_parameter_gets() -> None:
    document = create_app(Settings()).openapi_schema.to_schema()
    undeclared = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if "400" not in operation["responses"]
    ]
    assert undeclared == []


@pytest.mark.parametrize("path", ["/", "/docs/openapi.json"])
async def test_pages_outside_the_api_take_any_query(client: Client, path: str) -> None:
    response = await client.get(f"{path}?utm_source=mail")
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("path", "methods"),
    [
        ("/webhooks", "GET, OPTIONS, POST"),
        ("/players/me/matches", "GET, OPTIONS, POST"),
        ("/players/me/quick-match", "DELETE, GET, OPTIONS, POST"),
        ("/matches", "OPTIONS, POST"),
        ("/matches/00000000-0000-0000-0000-000000000000/view", "GET, OPTIONS"),
    ],
)
async def test_options_allows_every_method_of_its_path(
    client: Client, path: str, methods: str
) -> None:
    response = await client.options(path)

    assert response.status_code == 204
    assert response.headers["allow"] == methods


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_whole_number_written_with_a_fraction_is_that_integer(
    client: Client, players: int
) -> None:
    # JSON Schema counts 10.0 an integer, so a client may send it where the document says one.
    body = {"players": players, "options": {"game_target": 10.0, "match_target": 0.0}}

    created = await client.post("/matches", json=body)

    assert created.status_code == 201, created.text
    match_id, token = created.json()["match_id"], created.json()["seats"][0]["token"]
    view = await client.get(f"/matches/{match_id}/view", headers=bearer(token))
    assert view.status_code == 200, view.text
    assert len(view.json()["display_names"]) == players
    game_target = view.json()["options"]["game_target"]
    assert game_target == 10
    assert type(game_target) is int


@pytest.mark.parametrize("value", [10.5, 1e300, "10"])
async def test_a_number_that_is_no_whole_number_is_refused_where_an_integer_is_due(
    client: Client, value: object
) -> None:
    response = await client.post("/matches", json={"options": {"game_target": value}})

    problem = assert_problem(response, 422, "invalid-request")
    assert "game_target" in problem["detail"]


@pytest.mark.parametrize("body", [b"[1, \x01", b'{"options": [', b"[{]"])
async def test_a_body_refused_before_it_is_read_whole_is_refused_not_a_500(
    client: Client, body: bytes
) -> None:
    response = await client.post(
        "/matches/join", content=body, headers={"Content-Type": "application/json"}
    )

    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"] == "application/problem+json"
