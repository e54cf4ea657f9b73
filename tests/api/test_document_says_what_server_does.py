"""The client document says what the server does: every answer a route may give, the limits
the server holds requests to, ids typed as ids, one type for each value a client handles (a
nullable enumeration, a legal action and the command it posts), readable operation ids, the
credential once, and the webhooks' bodies."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from litestar.serialization import decode_json, encode_json
from openapi_schema_validator import OAS31Validator

from domain.errors import InvalidOptions
from domain.options import RuleOptions
from web.app import create_app
from web.openapi_contract import client_document
from web.schemas import MAX_VERSION
from web.settings import Settings

Json = dict[str, Any]
METHODS = ("get", "post", "put", "patch", "delete")
ID_FIELDS = ("match_id", "round_id", "webhook_id", "player_id")


@cache
def _document() -> bytes:
    # The document needs no database: the app is built, never started.
    return encode_json(client_document(create_app(Settings()).openapi_schema.to_schema()))


def document() -> Json:
    found: Json = decode_json(_document())
    return found


def operations(doc: Json) -> list[tuple[str, str, Json]]:
    return [
        (method, path, operation)
        for path, by_method in doc["paths"].items()
        for method, operation in by_method.items()
        if method in METHODS
    ]


def nodes(node: Any) -> list[Json]:
    """Every object in ``node``, at any depth."""
    if isinstance(node, list):
        return [found for item in node for found in nodes(item)]
    if not isinstance(node, dict):
        return []
    return [node, *(found for value in node.values() for found in nodes(value))]


def parameter(operation: Json, name: str) -> Json:
    found: list[Json] = [p for p in operation.get("parameters", []) if p["name"] == name]
    (only,) = found
    return only


def test_every_route_that_reads_the_database_declares_its_outage() -> None:
    doc = document()
    without = {("get", "/health/live"), ("get", "/checkpoints/key")}
    for method, path, operation in operations(doc):
        if (method, path) in without:
            continue
        outage = operation["responses"].get("503")
        assert outage is not None, (method, path)
        assert "Retry-After" in outage.get("headers", {}) or path.startswith("/health")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/matches"),
        ("post", "/matches/{match_id}/commands"),
        ("post", "/players"),
        ("post", "/players/me/matches"),
        ("post", "/players/me/quick-match"),
        ("post", "/players/me/invites"),
        ("post", "/players/me/matches/{match_id}/rematch"),
    ],
)
def test_every_rate_limited_route_declares_429(method: str, path: str) -> None:
    responses = document()["paths"][path][method]["responses"]

    assert "429" in responses
    assert "Retry-After" in responses["429"]["headers"]


def test_a_conditional_read_declares_304_and_the_feed_its_404() -> None:
    doc = document()
    for method, path, operation in operations(doc):
        names = [p["name"] for p in operation.get("parameters", [])]
        assert ("304" in operation["responses"]) == ("If-None-Match" in names), (method, path)
    assert "404" in doc["paths"]["/feed"]["get"]["responses"]


def test_a_body_takes_content_too_large_wherever_it_is_sent() -> None:
    for method, path, operation in operations(document()):
        if "requestBody" in operation:
            assert "413" in operation["responses"], (method, path)


def test_operation_ids_are_readable_and_unique() -> None:
    ids = [operation["operationId"] for _, _, operation in operations(document())]

    assert len(set(ids)) == len(ids)
    for found in ids:
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]*)*", found), found
        assert len(found) <= 25, found
    assert "getMatchView" in ids
    assert "sendCommand" in ids


def test_the_credential_is_a_security_scheme_not_also_a_header_parameter() -> None:
    doc = document()
    for method, path, operation in operations(doc):
        parameters = operation.get("parameters", [])
        headers = [p["name"].lower() for p in parameters if p["in"] == "header"]
        assert "authorization" not in headers, (method, path)
    # A route anybody may call, with an operator key for a tournament's ids, says so in
    # words: a ``security`` would have generated clients demand a credential of everybody.
    create = doc["paths"]["/matches"]["post"]
    assert "security" not in create
    assert "`OperatorKey`" in create["description"]


def test_ids_in_bodies_are_uuids_as_in_paths() -> None:
    doc = document()
    found = 0
    for node in nodes(doc):
        for name, field in node.get("properties", {}).items():
            if name not in ID_FIELDS or not isinstance(field, dict):
                continue
            strings = [s for s in [field, *field.get("oneOf", [])] if s.get("type") == "string"]
            assert strings, (name, field)
            assert all(s.get("format") == "uuid" for s in strings), (name, field)
            found += 1
    assert found > 10


def test_a_nullable_enumeration_is_one_enumeration_beside_null() -> None:
    doc = document()
    for node in nodes(doc):
        if "enum" in node:
            assert None not in node["enum"], node
            assert not isinstance(node.get("type"), list), node
    migrations = doc["components"]["schemas"]["Readiness"]["properties"]["migrations"]
    assert migrations == {
        "oneOf": [{"type": "string", "enum": ["done", "pending"]}, {"type": "null"}]
    }


def test_positions_and_pages_carry_the_bounds_the_server_holds_them_to() -> None:
    paths = document()["paths"]
    after = parameter(paths["/matches/{match_id}/events"]["get"], "after")["schema"]
    at = parameter(paths["/matches/{match_id}/replay"]["get"], "at")["schema"]
    feed_after = parameter(paths["/feed"]["get"], "after")["schema"]
    before = parameter(paths["/players/me/matches"]["get"], "before")["schema"]

    for bounded in (after, at, feed_after):
        # Exactly, as an integer: 1e+18 would admit one more than the server takes.
        assert bounded["maximum"] == MAX_VERSION
        assert isinstance(bounded["maximum"], int)
    assert at["minimum"] == 1
    (integer,) = [choice for choice in before["oneOf"] if choice.get("type") == "integer"]
    assert integer["minimum"] == 0


def test_rule_options_carry_the_rules_bounds() -> None:
    options = document()["components"]["schemas"]["RuleOptions"]["properties"]

    assert (options["knock_limit"]["minimum"], options["knock_limit"]["maximum"]) == (0, 10)
    assert (options["game_target"]["minimum"], options["game_target"]["maximum"]) == (1, 10_000)
    # Each bound is the rules' own: one past it is refused by RuleOptions itself.
    with pytest.raises(InvalidOptions, match="knock_limit"):
        RuleOptions(knock_limit=options["knock_limit"]["maximum"] + 1)


def test_bodies_that_refuse_unknown_fields_say_so() -> None:
    doc = document()
    schemas = doc["components"]["schemas"]
    for name in ("CreateMatch", "JoinMatch", "RuleOptions", "DiscardBody", "CreateWebhook"):
        assert schemas[name]["additionalProperties"] is False, name
    for header, value in (("Idempotency-Key", "k"), ("If-Match", '"v3-s0"')):
        operation = doc["paths"]["/matches/{match_id}/commands"]["post"]
        schema = parameter(operation, header)["schema"]
        assert re.search(schema["pattern"], value), header


def test_a_legal_action_is_the_command_body_type() -> None:
    doc = document()
    schemas = doc["components"]["schemas"]
    sent = doc["paths"]["/matches/{match_id}/commands"]["post"]["requestBody"]
    body = sent["content"]["application/json"]["schema"]
    for view in ("MatchView", "FormatMatchView"):
        listed = schemas[view]["properties"]["legal_actions"]["items"]
        assert listed == body
    assert "Discard" not in schemas


def test_the_webhooks_bodies_have_schemas_a_delivery_names() -> None:
    doc = document()
    schemas = doc["components"]["schemas"]
    hooks = doc["webhooks"]
    match_news = hooks["matchNews"]["post"]["requestBody"]["content"]["application/json"]
    player_news = hooks["playerNews"]["post"]["requestBody"]["content"]["application/json"]

    assert match_news["schema"] == {"$ref": "#/components/schemas/Payload"}
    assert player_news["schema"] == {"$ref": "#/components/schemas/RelayBody"}
    payload = schemas["Delivery"]["properties"]["payload"]
    assert payload["discriminator"]["mapping"]["match_end"] == "#/components/schemas/Payload"
    assert payload["discriminator"]["mapping"]["player_your_turn"].endswith("/RelayBody")


def test_a_problem_of_a_type_newer_than_the_document_is_still_a_problem() -> None:
    doc = document()
    problem = {"$ref": "#/components/schemas/Problem", "components": doc["components"]}
    newer = {"type": "/problems/a-kind-from-later", "title": "t", "status": 409, "detail": "d"}

    OAS31Validator({**problem}).validate(newer)
