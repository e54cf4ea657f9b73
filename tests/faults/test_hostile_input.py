"""Hostile requests: deep nesting, huge bodies, lax numbers. Each gets a 4xx problem+json and
changes nothing (issue 13, findings 2 and 6)."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator

import psycopg
import pytest
from litestar.routes import HTTPRoute

from tests.api.conftest import Asgi, served
from tests.api.players import create_table
from web.command_parsing import MAX_COMMAND_BYTES
from web.limits import MAX_JSON_DEPTH, json_depth
from web.settings import Settings

PROBLEM = "application/problem+json"
DEEP = b"[" * 20_000 + b"]" * 20_000
HUGE = b"x" * (20 * 1024 * 1024)


@pytest.fixture(scope="module")
async def app(database_url: str) -> AsyncIterator[Asgi]:
    async with served(database_url) as running:
        yield running


PATH_PARAMETER = re.compile(r"\{(\w+):(\w+)\}")


def made_up(kind: str) -> str:
    """A value of a path parameter's type; a type not known here fails loudly."""
    return {"uuid": str(uuid.uuid4()), "int": "1", "str": "made-up"}[kind]


def filled(path: str) -> str:
    """The path with every parameter made up, so the request reaches the route's handler
    rather than a 404; a parameter of a type not known here fails loudly."""
    return PATH_PARAMETER.sub(lambda found: made_up(found.group(2)), path)


def post_paths(running: Asgi) -> list[str]:
    """Every route that reads a body, with each path parameter made up (a route that reads
    none, such as a credential's rotation, answers without reading it)."""
    paths = []
    for route in running.app.routes:
        if isinstance(route, HTTPRoute) and any(
            "POST" in handler.http_methods
            and {"data", "body"} & set(handler.parsed_fn_signature.parameters)
            for handler in route.route_handlers
        ):
            paths.append(filled(route.path))
    assert len(paths) >= 5, paths  # matches, join, commands, commitments, webhooks
    return paths


def counts(database_url: str) -> tuple[int, ...]:
    with psycopg.connect(database_url) as connection:
        row = connection.execute(
            "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM seed_commitments),"
            " (SELECT count(*) FROM events), (SELECT count(*) FROM webhooks)"
        ).fetchone()
    assert row is not None
    return tuple(row)


async def test_deeply_nested_json_is_refused_on_every_route(app: Asgi, database_url: str) -> None:
    before = counts(database_url)
    for path in post_paths(app):
        response = await app.client.post(
            path, content=DEEP, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400, (path, response.status_code, response.text[:200])
        assert response.headers["content-type"].startswith(PROBLEM)
        assert response.json()["type"] == "/problems/malformed-json"
    assert counts(database_url) == before


async def test_nesting_just_within_the_limit_is_decoded_as_usual(app: Asgi) -> None:
    body = b'{"options": ' + b"[" * (MAX_JSON_DEPTH - 1) + b"]" * (MAX_JSON_DEPTH - 1) + b"}"
    response = await app.client.post(
        "/matches", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422  # the shape is wrong, and said so: not a depth refusal
    assert response.json()["type"] == "/problems/invalid-request"


def test_brackets_inside_strings_do_not_count() -> None:
    assert json_depth(b'{"a": "[[[[{{{{\\"[[["}') == 1
    assert json_depth(b"[[1], [[2]]]") == 3


async def test_an_oversized_body_is_413_on_every_route(app: Asgi, database_url: str) -> None:
    before = counts(database_url)
    for path in post_paths(app):
        response = await app.client.post(
            path, content=HUGE, headers={"content-type": "application/json"}
        )
        assert response.status_code == 413, (path, response.status_code)
        assert response.headers["content-type"].startswith(PROBLEM)
        assert response.json()["type"] == "/problems/request-too-large"
    assert counts(database_url) == before
    just_over = b" " * (Settings().max_body_bytes + 1)
    response = await app.client.post("/commitments", content=just_over)
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        (b"{", 400, "malformed-json"),
        (b"not json", 400, "malformed-json"),
        (b'{"entropy": "mine"}', 422, "invalid-request"),
        (b"[]", 422, "invalid-request"),
    ],
)
async def test_commitments_refuse_a_body_they_cannot_take(
    app: Asgi, database_url: str, body: bytes, status: int, kind: str
) -> None:
    before = counts(database_url)
    response = await app.client.post(
        "/commitments", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    assert response.json()["type"] == f"/problems/{kind}"
    assert counts(database_url) == before


@pytest.mark.parametrize("body", [b"", b"{}", b" {} "])
async def test_commitments_take_an_empty_body(app: Asgi, body: bytes) -> None:
    response = await app.client.post("/commitments", content=body)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    "query",
    ["after=1e3", "after=1.0", "after=+1", "after=%201", "after=0x10", "after=1&after=2", "after="],
)
async def test_integer_query_parameters_are_digits_only(app: Asgi, query: str) -> None:
    table = await create_table(app.client)
    match_path = table.path
    for path in [
        f"{match_path}/events",
        f"{match_path}/stream",
        "/feed",
        f"/webhooks/{uuid.uuid4()}/deliveries",
    ]:
        response = await app.client.get(f"{path}?{query}")
        assert response.status_code == 400, (path, query, response.status_code)
        assert response.json()["type"] == "/problems/invalid-parameter"
    response = await app.client.get(f"{match_path}/replay?{query.replace('after', 'at')}")
    assert response.status_code == 400


async def test_plain_digits_are_still_taken(app: Asgi) -> None:
    table = await create_table(app.client)
    response = await app.client.get(f"{table.path}/events?after=1")
    assert response.status_code == 200
    assert [e["version"] for e in response.json()["events"]][:1] == [2]


async def test_long_fields_are_refused(app: Asgi) -> None:
    table = await create_table(app.client)
    long_key = {"Idempotency-Key": "k" * 10_000, **table.headers(0)}
    response = await app.client.post(
        f"{table.path}/commands", json={"type": "draw_from_stock"}, headers=long_key
    )
    assert response.status_code == 400
    response = await app.client.post("/matches/join", json={"invite_code": "i" * 10_000})
    assert response.status_code == 422
    response = await app.client.post("/matches", json={"external_ref": "r" * 10_000})
    assert response.status_code == 422


async def test_a_command_is_small(app: Asgi) -> None:
    table = await create_table(app.client)
    response = await app.client.post(
        f"{table.path}/commands",
        json={"type": "discard", "card": "x" * (MAX_COMMAND_BYTES + 1)},
        headers=table.headers(0),
    )
    assert response.status_code == 422
    assert response.json()["type"] == "/problems/invalid-request"
    assert len(response.content) < 1000  # the card is not echoed back
