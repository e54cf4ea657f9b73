"""The client document's types, as exact as the server's checks: what Litestar leaves looser than
the server (an id as plain text, a limit beside a nullable union rather than in it, a bound
written as a float, an object that takes unknown fields) made to say what the server takes.
A generator then types each value as it is (an id a ``UUID``) and a fuzzer sends only what the
server accepts as valid."""

from __future__ import annotations

from typing import Any

import msgspec

# The rules' own bounds on each option (the domain refuses outside them), read, not copied.
from domain.options import _RANGES as RANGES
from web.schemas import MAX_VERSION

Json = dict[str, Any]
NULL = {"type": "null"}
# Properties that hold the id of a match, round, webhook or player: UUIDs, as in the paths.
UUID_FIELDS = frozenset({"match_id", "round_id", "webhook_id", "player_id", "to_player_id"})
# Keywords that constrain a value rather than say what type it is.
CONSTRAINTS = ("minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems")
# What the server takes in these headers (web/etags.py, web/commands.py).
HEADER_SCHEMAS: dict[str, Json] = {
    "If-None-Match": {"type": "string", "pattern": r'^(W/)?"?v?[0-9]{1,18}(-s[0-9])?"?$'},
    "If-Match": {"type": "string", "pattern": r'^(W/)?"?v?[0-9]{1,18}(-s[0-9])?"?$'},
    "Idempotency-Key": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": "^[\\x20-\\x7e\\u00a0-\\uffff]+$",
    },
}

# Bounds Litestar leaves out of an optional parameter's schema (web/players.py's ``Before``).
PARAMETER_BOUNDS: dict[tuple[str, str], Json] = {
    ("/players/me/matches", "before"): {"minimum": 0},
}


def refine_types(document: Json) -> None:
    schemas: Json = document["components"]["schemas"]
    _walk(document)
    _closed_objects(schemas)
    _struct_constraints(schemas)
    _rule_option_bounds(schemas)
    for path, operations in document["paths"].items():
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                for choice in [parameter["schema"], *parameter["schema"].get("oneOf", [])]:
                    if choice.get("type") == "integer":
                        choice.update(PARAMETER_BOUNDS.get((path, parameter["name"]), {}))
                exact = HEADER_SCHEMAS.get(parameter["name"])
                if parameter["in"] == "header" and exact is not None:
                    described = parameter["schema"].get("description")
                    parameter["schema"] = dict(exact)
                    if described:
                        parameter["description"] = described


def _walk(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item)
        return
    if not isinstance(node, dict):
        return
    _one_nullable_enum(node)
    _constraints_inside(node)
    _integral_bounds(node)
    for name, field in node.get("properties", {}).items():
        if name in UUID_FIELDS:
            _uuid(field)
    for value in node.values():
        _walk(value)


def _one_nullable_enum(node: Json) -> None:
    """``{"type": ["null", "string"], "enum": [..., null]}`` as a nullable union of one enum:
    generators make one enumeration of it, not three."""
    kinds = node.get("type")
    if not (isinstance(kinds, list) and "null" in kinds and "enum" in node):
        return
    (kind,) = [k for k in kinds if k != "null"]
    values = [value for value in node.pop("enum") if value is not None]
    del node["type"]
    node["oneOf"] = [{"type": kind, "enum": values}, dict(NULL)]


def _constraints_inside(node: Json) -> None:
    """A bound beside ``oneOf: [X, null]`` goes into X, where every validator applies it."""
    choices = node.get("oneOf")
    if not isinstance(choices, list) or NULL not in choices:
        return
    values = [choice for choice in choices if choice != NULL]
    if len(values) != 1 or not isinstance(values[0], dict) or "$ref" in values[0]:
        return
    for keyword in CONSTRAINTS:
        if keyword in node:
            values[0][keyword] = node.pop(keyword)


def _integral_bounds(node: Json) -> None:
    """Bounds on integers as integers: ``1e18`` would say one more than the server takes."""
    if node.get("type") != "integer":
        return
    for keyword in ("minimum", "maximum"):
        bound = node.get(keyword)
        if isinstance(bound, float):
            node[keyword] = MAX_VERSION if bound >= MAX_VERSION else int(bound)


def _uuid(field: Json) -> None:
    for schema in [field, *field.get("oneOf", [])]:
        if schema.get("type") == "string":
            schema["format"] = "uuid"


def _struct_constraints(schemas: Json) -> None:
    """The bounds msgspec holds a body's fields to, where Litestar leaves them out (on a
    list's items: each entropy, external player id and invited seat)."""
    for cls in _structs(msgspec.Struct):
        schema = schemas.get(cls.__name__)
        if schema is None or "properties" not in schema:
            continue
        try:
            _, own = msgspec.json.schema_components([cls])
        except (TypeError, ValueError):
            continue  # a type msgspec cannot describe is no body the server decodes
        exact = own.get(cls.__name__, {})
        if set(exact.get("properties", {})) == set(schema["properties"]):
            for name, field in schema["properties"].items():
                _merge(field, exact["properties"][name])


def _merge(loose: Any, exact: Any) -> None:
    if not isinstance(loose, dict) or not isinstance(exact, dict):
        return
    for keyword in CONSTRAINTS:
        if keyword in exact and keyword not in loose:
            loose[keyword] = exact[keyword]
    _merge(loose.get("items"), exact.get("items"))
    loose_choices = loose.get("oneOf") or loose.get("anyOf") or []
    exact_choices = exact.get("anyOf") or exact.get("oneOf") or []
    for choice in loose_choices:
        same = [c for c in exact_choices if isinstance(c, dict) and _kind(c) == _kind(choice)]
        if len(same) == 1 and _kind(choice) is not None:
            _merge(choice, same[0])


def _kind(schema: Any) -> Any:
    return schema.get("type") if isinstance(schema, dict) else None


def _closed_objects(schemas: Json) -> None:
    """A body the server refuses unknown fields in says so (``additionalProperties: false``)."""
    for cls in _structs(msgspec.Struct):
        schema = schemas.get(cls.__name__)
        if schema is not None and cls.__struct_config__.forbid_unknown_fields:
            schema["additionalProperties"] = False


def _structs(base: type[msgspec.Struct]) -> list[type[msgspec.Struct]]:
    found: list[type[msgspec.Struct]] = []
    for sub in base.__subclasses__():
        found += [sub, *_structs(sub)]
    return found


def _rule_option_bounds(schemas: Json) -> None:
    properties = schemas["RuleOptions"]["properties"]
    for name, (low, high) in RANGES.items():
        properties[name]["minimum"] = low
        properties[name]["maximum"] = high
