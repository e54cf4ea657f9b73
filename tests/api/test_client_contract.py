"""The client contract, ``/docs/openapi.json``: what generators need from it, and a command
body's unknown fields refused as the document promises."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from openapi_spec_validator import validate

from tests.api.players import bearer, create_table
from tests.api.problems import assert_problem
from web.problems import ALL_KINDS

Client = AsyncTestClient[Litestar]
SERVER_ONLY = ("start_match", "cut", "deal")
HEALTH_OUTAGES = {("/health", "503"), ("/health/ready", "503")}


async def document(client: Client) -> dict[str, Any]:
    response = await client.get("/docs/openapi.json")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def test_the_document_is_valid_openapi(client: Client) -> None:
    validate(await document(client))


async def test_commands_are_a_discriminated_union_without_the_servers_own(client: Client) -> None:
    doc = await document(client)
    body = doc["paths"]["/matches/{match_id}/commands"]["post"]["requestBody"]
    sent = body["content"]["application/json"]["schema"]
    listed = doc["components"]["schemas"]["MatchView"]["properties"]["legal_actions"]["items"]

    for union in (sent, listed):
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert sorted(mapping.values()) == sorted(choice["$ref"] for choice in union["oneOf"])
        assert not set(SERVER_ONLY) & set(mapping)
    assert "discard" in sent["discriminator"]["mapping"]
    text = json.dumps(doc)
    for tag in SERVER_ONLY:
        assert f'"const": "{tag}"' not in text


async def test_seat_may_be_left_out_of_a_command_body(client: Client) -> None:
    doc = await document(client)
    schemas = doc["components"]["schemas"]
    sent = doc["paths"]["/matches/{match_id}/commands"]["post"]["requestBody"]
    for choice in sent["content"]["application/json"]["schema"]["oneOf"]:
        command = schemas[choice["$ref"].rsplit("/", 1)[1]]
        assert "seat" in command["properties"]
        assert "seat" not in command["required"]


async def test_events_are_a_discriminated_union_open_to_newer_types(client: Client) -> None:
    doc = await document(client)
    schemas = doc["components"]["schemas"]
    event = schemas["EventEnvelope"]["properties"]["event"]

    listed, other = event["oneOf"]
    assert {"dealt", "drew", "scored", "match_won"} <= set(listed["discriminator"]["mapping"])
    assert other == {"$ref": "#/components/schemas/OtherEvent"}
    unlisted = schemas["OtherEvent"]["not"]["properties"]["type"]["enum"]
    assert set(listed["discriminator"]["mapping"]) <= set(unlisted)


def undiscriminated_unions(node: Any, schemas: dict[str, Any], at: str = "") -> list[str]:
    """Where ``node`` has an ``anyOf`` or ``oneOf`` of two or more objects without a
    discriminator: a generated client could tell its members apart only by trying each."""
    found: list[str] = []
    if isinstance(node, list):
        for index, item in enumerate(node):
            found += undiscriminated_unions(item, schemas, f"{at}/{index}")
        return found
    if not isinstance(node, dict):
        return found
    for key in ("anyOf", "oneOf"):
        choices = node.get(key, [])
        objects = [choice for choice in choices if is_object(choice, schemas)]
        if len(objects) > 1 and "discriminator" not in node:
            found.append(f"{at}/{key}")
    for key, value in node.items():
        found += undiscriminated_unions(value, schemas, f"{at}/{key}")
    return found


def is_object(schema: Any, schemas: dict[str, Any]) -> bool:
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        return is_object(schemas[schema["$ref"].rsplit("/", 1)[1]], schemas)
    return schema.get("type") == "object" or "properties" in schema


async def test_no_union_of_objects_is_without_a_discriminator(client: Client) -> None:
    doc = await document(client)

    assert undiscriminated_unions(doc, doc["components"]["schemas"]) == []


@pytest.mark.parametrize(
    "path", ["/matches/{match_id}", "/matches/{match_id}/view", "/matches/{match_id}/replay"]
)
async def test_a_view_summary_and_replay_are_one_schema_per_table_size_told_by_kind(
    client: Client, path: str
) -> None:
    doc = await document(client)
    answer = doc["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]
    union = answer["schema"]
    schemas = doc["components"]["schemas"]

    assert union["discriminator"]["propertyName"] == "kind"
    assert set(union["discriminator"]["mapping"]) == {"two_players", "three_or_four_players"}
    for kind, ref in union["discriminator"]["mapping"].items():
        schema = schemas[ref.rsplit("/", 1)[1]]
        assert schema["properties"]["kind"]["const"] == kind
        assert "kind" in schema["required"]


async def test_an_event_field_left_out_at_its_default_is_optional_without_a_default(
    client: Client,
) -> None:
    # A three- or four-player match created before rules versions has none in its event.
    created = (await document(client))["components"]["schemas"]["FormatMatchCreated"]
    version = created["properties"]["rules_version"]
    assert "rules_version" not in created["required"]
    assert "default" not in version
    assert version["enum"] == [1, 2]
    assert "Absent: 1" in version["description"]


async def test_problem_types_are_an_open_enumeration_and_every_error_is_a_problem(
    client: Client,
) -> None:
    doc = await document(client)
    problem = doc["components"]["schemas"]["Problem"]
    known, other = problem["properties"]["type"]["anyOf"]
    assert known["enum"] == sorted(f"/problems/{k}" for k in ALL_KINDS)
    assert other == {"type": "string"}  # a newer type than the client knows
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                # The health checks answer an outage with their own body, not a problem.
                if status.startswith(("4", "5")) and (path, status) not in HEALTH_OUTAGES:
                    assert list(response["content"]) == ["application/problem+json"], (
                        method,
                        path,
                        status,
                    )


async def test_the_document_invents_no_examples_and_states_its_version_policy(
    client: Client,
) -> None:
    doc = await document(client)

    assert not re.search(r'"examples?"', json.dumps(doc))
    assert doc["info"]["version"] == "1"
    assert "**Versions.**" in doc["info"]["description"]


async def test_an_unknown_field_in_a_command_is_refused_and_changes_nothing(
    client: Client,
) -> None:
    table = await create_table(client)
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    seat = view["turn"]
    action = {"type": "choose_dealer", "dealer": 1, "dealr": 0}

    response = await client.post(f"{table.path}/commands", json=action, headers=table.headers(seat))

    problem = assert_problem(response, 422, "invalid-request")
    assert "'dealr'" in problem["detail"]
    after = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    assert after["version"] == view["version"]


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_a_view_and_a_summary_say_their_kind(client: Client, players: int) -> None:
    created = await client.post("/matches", json={"players": players})
    assert created.status_code == 201, created.text
    body = created.json()
    token = body["seats"][0]["token"]
    kind = "two_players" if players == 2 else "three_or_four_players"

    view = await client.get(f"/matches/{body['match_id']}/view", headers=bearer(token))
    summary = await client.get(f"/matches/{body['match_id']}")

    assert view.status_code == 200, view.text
    assert view.json()["kind"] == kind
    assert summary.status_code == 200, summary.text
    assert summary.json()["kind"] == kind
