"""Operator keys: made by ``gin operator``, stored hashed, each good for its scopes only; a
seat token does nothing an operator does, and an operator key plays no seat."""

from __future__ import annotations

import asyncio
import hashlib

import psycopg
import pytest

from cli.main import main
from service.tournament.operators import OperatorKeys
from tests.tournament.conftest import new_key
from tests.tournament.play import Client, Json, bearer, create_table

OPERATOR_ROUTES = [("GET", "/feed"), ("GET", "/webhooks"), ("POST", "/webhooks")]


def problem_type(response: Json) -> str:
    kind: str = response["type"]
    return kind.removeprefix("/problems/")


async def call(client: Client, method: str, path: str, headers: dict[str, str]) -> tuple[int, Json]:
    if method == "POST":
        response = await client.post(path, json={"url": "http://127.0.0.1:9/x"}, headers=headers)
    else:
        response = await client.get(path, headers=headers)
    assert response.headers["content-type"].startswith(
        "application/problem+json" if response.status_code >= 400 else "application/json"
    )
    return response.status_code, response.json()


async def run_cli(*argv: str) -> int:
    # The command runs its own event loop, so it gets a thread of its own.
    return await asyncio.to_thread(main, list(argv))


async def test_create_key_prints_the_key_once_and_the_database_keeps_only_its_hash(
    client: Client, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = await run_cli(
        "operator", "create-key", "--name", "Cup", "--scope", "feed:read",
        "--database-url", database_url,
    )  # fmt: skip

    assert status == 0
    lines = dict(line.split(":", 1) for line in capsys.readouterr().out.splitlines() if ":" in line)
    key = lines["key"].strip()
    assert key.startswith("gop_")
    with psycopg.connect(database_url) as conn:
        stored = conn.execute("SELECT key_hash, scopes FROM operator_keys").fetchall()
        dump = conn.execute("SELECT string_agg(k::text, ' ') FROM operator_keys k").fetchone()
    assert (hashlib.sha256(key.encode()).digest(), ["feed:read"]) in [
        (bytes(h), s) for h, s in stored
    ]
    assert dump is not None
    assert key not in dump[0]
    assert (await client.get("/feed", headers=bearer(key))).status_code == 200


async def test_list_keys_shows_ids_and_scopes_but_never_a_key(
    keys: OperatorKeys, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    made = await keys.create_key("Lister", ["webhooks:manage", "feed:read"])

    assert await run_cli("operator", "list-keys", "--database-url", database_url) == 0

    out = capsys.readouterr().out
    assert f"{made.operator.key_id}  Lister  webhooks:manage,feed:read  live" in out
    assert made.key not in out


async def test_a_revoked_key_is_unknown(
    client: Client, keys: OperatorKeys, database_url: str
) -> None:
    made = await keys.create_key("Revoked", ["feed:read"])
    assert (await client.get("/feed", headers=bearer(made.key))).status_code == 200

    status = await run_cli(
        "operator", "revoke-key", made.operator.key_id, "--database-url", database_url
    )

    assert status == 0
    response = await client.get("/feed", headers=bearer(made.key))
    assert response.status_code == 401
    assert problem_type(response.json()) == "unknown-operator-key"


@pytest.mark.parametrize(("method", "path"), OPERATOR_ROUTES)
async def test_operator_routes_need_a_key(client: Client, method: str, path: str) -> None:
    status, body = await call(client, method, path, {})

    assert (status, problem_type(body)) == (401, "missing-operator-key")


@pytest.mark.parametrize(("method", "path"), OPERATOR_ROUTES)
async def test_an_unknown_key_is_refused(client: Client, method: str, path: str) -> None:
    status, body = await call(client, method, path, bearer("gop_not-a-key"))

    assert (status, problem_type(body)) == (401, "unknown-operator-key")


@pytest.mark.parametrize(("method", "path"), OPERATOR_ROUTES)
async def test_a_seat_token_cannot_act_as_an_operator(
    client: Client, method: str, path: str
) -> None:
    table = await create_table(client)

    status, body = await call(client, method, path, table.headers(0))

    assert (status, problem_type(body)) == (403, "seat-token-not-operator-key")


@pytest.mark.parametrize(
    ("method", "path", "scope"),
    [
        ("GET", "/feed", "webhooks:manage"),
        ("GET", "/webhooks", "feed:read"),
        ("POST", "/webhooks", "matches:create"),
    ],
)
async def test_a_key_acts_only_within_its_scopes(
    client: Client, keys: OperatorKeys, method: str, path: str, scope: str
) -> None:
    key = await new_key(keys, "Narrow", scope)

    status, body = await call(client, method, path, bearer(key))

    assert (status, problem_type(body)) == (403, "missing-scope")


async def test_an_operator_key_opens_no_seat(client: Client, keys: OperatorKeys) -> None:
    key = await new_key(keys, "Everything", "matches:create", "feed:read", "webhooks:manage")
    table = await create_table(client, operator_key=key)
    path = f"/matches/{table.match_id}"

    responses = [
        await client.get(f"{path}/view", headers=bearer(key)),
        await client.get(f"{path}/events", headers=bearer(key)),
        await client.post(f"{path}/commands", json={"type": "pass_upcard"}, headers=bearer(key)),
    ]

    for response in responses:
        assert response.status_code == 403
        assert response.headers["content-type"].startswith("application/problem+json")


async def test_anyone_may_create_a_match_without_tournament_ids(client: Client) -> None:
    response = await client.post("/matches", json={"options": {"match_target": 0}})

    assert response.status_code == 201
    summary = (await client.get(f"/matches/{response.json()['match_id']}")).json()
    assert summary["external_ref"] is None
    assert [p["external_player_id"] for p in summary["players"]] == [None, None]


TOURNAMENT_IDS: Json = {"external_ref": "cup-r1-m3", "external_player_ids": ["p-17", "p-42"]}


async def test_tournament_ids_need_an_operator_key(client: Client, keys: OperatorKeys) -> None:
    table = await create_table(client)
    feed_only = await new_key(keys, "Reader", "feed:read")
    cases = [({}, 401), (table.headers(0), 403), (bearer(feed_only), 403)]

    for headers, status in cases:
        response = await client.post("/matches", json=TOURNAMENT_IDS, headers=headers)
        assert response.status_code == status, headers


async def test_an_operator_creates_a_match_with_its_tournament_ids(
    client: Client, keys: OperatorKeys
) -> None:
    key = await new_key(keys, "Cup", "matches:create")

    table = await create_table(client, operator_key=key, **TOURNAMENT_IDS)

    summary = (await client.get(f"/matches/{table.match_id}")).json()
    assert summary["external_ref"] == "cup-r1-m3"
    assert [p["external_player_id"] for p in summary["players"]] == ["p-17", "p-42"]


async def test_a_key_sent_with_a_plain_match_must_be_a_good_one(client: Client) -> None:
    response = await client.post("/matches", json={}, headers=bearer("gop_forged"))

    assert response.status_code == 401
