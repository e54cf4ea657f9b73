"""The OpenAPI document as client generators need it, refined from the one Litestar derives.

Litestar describes the domain's types as they are; a client needs a little more and a little
less: commands and events as unions with a discriminator mapping, command bodies in which
``seat`` may be left out (a legal action is one), no trace of the commands only the server
gives (``start_match``, ``cut``, ``deal`` and their three- and four-player forms), problem
``type`` as an open enumeration, and the version policy; ``web.openapi_operations`` adds each
operation's id and every answer it may give, ``web.openapi_types`` the server's own limits,
``web.openapi_webhooks`` the webhooks' bodies. Served at ``/docs/openapi.json``; the web
client's types are generated from it.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
from litestar import Request
from litestar.openapi.plugins import JsonRenderPlugin

from domain.commands import SeatCommand, SystemCommand
from domain.tables.commands import CutSeats, DealTable, StartFormatMatch
from domain.tables.events import FormatEvent
from web.openapi_events import open_event_unions
from web.openapi_operations import refine_operations
from web.openapi_types import refine_types
from web.openapi_webhooks import add_webhooks
from web.problems import ALL_KINDS, problem_type

Json = dict[str, Any]
REF = "#/components/schemas/"
# The fields a union's members are told apart by: an event's or command's ``type``; the
# ``kind`` of a view, summary or replay, which serve a match of any number of players.
TAG_FIELDS = ("type", "kind")
# Commands only the server gives, in a match of two players and of three or four.
SERVER_ONLY = [
    *(cls.__name__ for cls in SystemCommand.__args__),
    *(cls.__name__ for cls in (StartFormatMatch, CutSeats, DealTable)),
]

VERSION_POLICY = """

**Versions.** This document describes version 1 of the API (`info.version`). Within a
version, changes only add: new paths, new optional request fields, new response fields, new
event and command types, new problem types. Clients must ignore response fields they do not
know, treat an unknown event type as one to skip and an unknown problem type by its HTTP
status. Anything that would break a client written against this document (a field removed or
renamed, a meaning changed, a request field made required) comes as a new version under a new
path prefix, served beside this one for at least six months."""


def client_document(schema: Json) -> Json:
    """``schema`` (Litestar's document, as a dict) refined for clients; ``schema`` is kept."""
    document = copy.deepcopy(schema)
    schemas: Json = document["components"]["schemas"]
    add_webhooks(document)
    refine_types(document)
    refine_operations(document)
    _seat_commands(document, schemas)
    for name in SERVER_ONLY:
        schemas.pop(name, None)
    _discriminate(document, schemas)
    open_event_unions(document)
    _optional_when_omitted(schemas)
    _typed_headers(document)
    # Open: new problem types may come within a version, and a client must not fail on one.
    schemas["Problem"]["properties"]["type"] = {
        "anyOf": [
            {"type": "string", "enum": sorted(problem_type(kind) for kind in ALL_KINDS)},
            {"type": "string"},
        ],
        "description": "One of the types listed, or a newer one: treat it by the status",
    }
    document["info"]["description"] += VERSION_POLICY
    return document


class ClientDocument(JsonRenderPlugin):
    """``/openapi.json``: the refined document, made once."""

    def __init__(self) -> None:
        super().__init__()
        self._rendered: bytes | None = None

    def render(self, request: Request[Any, Any, Any], openapi_schema: Json) -> bytes:
        if self._rendered is None:
            self._rendered = self.render_json(request, client_document(openapi_schema))
        return self._rendered


def _seat_commands(document: Json, schemas: Json) -> None:
    """A view's ``legal_actions`` list seat commands with their seat; a command body may leave
    the seat out (``{Command}Body``), since the token names it."""
    names = [cls.__name__ for cls in SeatCommand.__args__]
    for name in names:
        body = schemas.pop(name)
        body["required"] = [field for field in body["required"] if field != "seat"]
        body["title"] = f"{name}Body"
        body["additionalProperties"] = False  # the parser refuses a field a command lacks
        schemas[f"{name}Body"] = body
    # A legal action is posted as it is: one schema for both, so a client needs no conversion.
    for view in ("MatchView", "FormatMatchView"):
        actions = schemas[view]["properties"]["legal_actions"]
        actions["items"] = {"oneOf": [{"$ref": f"{REF}{name}Body"} for name in names]}
    request = document["paths"]["/matches/{match_id}/commands"]["post"]["requestBody"]
    request["content"]["application/json"]["schema"] = {
        "oneOf": [{"$ref": f"{REF}{name}Body"} for name in names]
    }


def _optional_when_omitted(schemas: Json) -> None:
    """An event field left out at its default (``omit_defaults``) is absent from the JSON: no
    ``default`` in its schema, or a generator would type it as always there."""
    for cls in FormatEvent.__args__:
        if not cls.__struct_config__.omit_defaults:
            continue
        properties = schemas.get(cls.__name__, {}).get("properties", {})
        for field in msgspec.structs.fields(cls):
            if field.default is not msgspec.NODEFAULT and field.encode_name in properties:
                properties[field.encode_name].pop("default", None)


def _typed_headers(document: Json) -> None:
    """A documented response header is text (OpenAPI wants a schema for each; Litestar gives
    none for headers declared for the documentation only)."""
    for operations in document["paths"].values():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                for header in response.get("headers", {}).values():
                    if "schema" not in header and "content" not in header:
                        header["schema"] = {"type": "string"}


def _discriminate(node: Any, schemas: Json) -> None:
    """Every ``oneOf`` of objects told apart by a constant ``type`` (an event, a command) or
    ``kind`` (a two-player match's view, summary or replay, or a three- or four-player
    match's) gets the discriminator mapping each value to its schema. A ``null`` beside them
    (``Scored | HandDrawn | None``) goes beside a discriminated ``oneOf`` of the objects: a
    discriminator maps objects only."""
    if isinstance(node, list):
        for item in node:
            _discriminate(item, schemas)
        return
    if not isinstance(node, dict):
        return
    choices = node.get("oneOf")
    if isinstance(choices, list) and choices and "discriminator" not in node:
        objects = [choice for choice in choices if choice != {"type": "null"}]
        discriminator = _discriminator(objects, schemas)
        if discriminator is not None and len(objects) == len(choices):
            node["discriminator"] = discriminator
        elif discriminator is not None and len(objects) > 1:
            node["oneOf"] = [
                {"oneOf": objects, "discriminator": discriminator},
                {"type": "null"},
            ]
    for value in node.values():
        _discriminate(value, schemas)


def _discriminator(choices: list[Any], schemas: Json) -> Json | None:
    for field in TAG_FIELDS:
        tags = [_tag(choice, field, schemas) for choice in choices]
        if all(tag is not None for tag in tags):
            return {
                "propertyName": field,
                "mapping": {tag: choice["$ref"] for tag, choice in zip(tags, choices, strict=True)},
            }
    return None


def _tag(choice: Any, field: str, schemas: Json) -> str | None:
    if not isinstance(choice, dict) or not str(choice.get("$ref", "")).startswith(REF):
        return None
    target = schemas.get(choice["$ref"].removeprefix(REF), {})
    const = target.get("properties", {}).get(field, {}).get("const")
    return const if isinstance(const, str) and field in target.get("required", []) else None
