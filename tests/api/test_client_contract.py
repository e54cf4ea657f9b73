"""The client contract, ``/docs/openapi.json``: what generators need from it, and a command
body's unknown fields refused as the document promises."""

from __future__ import annotations

import json
import re
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient
from openapi_spec_validator import validate

from tests.api.players import create_table
from tests.api.problems import assert_problem
from web.problems import ALL_KINDS

Client = AsyncTestClient[Litestar]
SERVER_ONLY = ("start_match", "cut", "deal")


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


async def test_events_are_a_discriminated_union(client: Client) -> None:
    doc = await document(client)
    event = doc["components"]["schemas"]["EventEnvelope"]["properties"]["event"]

    assert {"dealt", "drew", "scored", "match_won"} <= set(event["discriminator"]["mapping"])


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


async def test_problem_types_are_an_enumeration_and_every_error_is_a_problem(
    client: Client,
) -> None:
    doc = await document(client)
    problem = doc["components"]["schemas"]["Problem"]
    assert problem["properties"]["type"]["enum"] == sorted(f"/problems/{k}" for k in ALL_KINDS)
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                if status.startswith(("4", "5")):
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
