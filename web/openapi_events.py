"""Event types left open, as problem types are: within version 1 a new event type may appear
(docs/api.md, "Versions"), so wherever an event of any type may stand (a feed entry's ``data``,
an events page's ``event``, a replay's step, a table's event, a webhook payload's ``event``),
the document takes, after the types it lists, ``OtherEvent``: an object whose ``type`` is none
of the listed ones. A generated client gives each listed type its own class still, and parses
an event of a newer type into ``OtherEvent`` instead of failing on it; a validator matches every
event with exactly one schema, since ``OtherEvent`` leaves out the listed types.

The listed types keep their discriminated ``oneOf``; ``OtherEvent`` stands beside it, as
``null`` stands beside a discriminated union (``web.openapi_contract``): a discriminator names
a schema for every value, which no newer type has. ``OtherEvent`` declares no fields, so the
TypeScript types narrow an event by its ``type`` to a listed type's fields still
(openapi-typescript makes it ``Record<string, never>``), while the Python client keeps each of
an unlisted event's fields, ``type`` first, by name."""

from __future__ import annotations

from typing import Any, get_args

from domain import Event
from domain.tables import FormatEvent

Json = dict[str, Any]
REF = "#/components/schemas/"
OTHER_EVENT = "OtherEvent"
EVENTS = {
    cls.__name__: str(cls.__struct_config__.tag)
    for cls in {*get_args(Event), *get_args(FormatEvent)}
}
# How a hand ended (a view's ``last_hand``) is a choice of two events, not an event of any type.
HAND_ENDS = frozenset({"Scored", "HandDrawn"})


def open_event_unions(document: Json) -> None:
    schemas: Json = document["components"]["schemas"]
    schemas[OTHER_EVENT] = {
        "title": OTHER_EVENT,
        "description": (
            "An event of a type this document does not list, new within version 1: skip it, "
            "or read its fields (`type` first) by name"
        ),
        "type": "object",
        "required": ["type"],
        "not": {"properties": {"type": {"enum": sorted(EVENTS.values())}}},
    }
    _open(document)


def _open(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _open(item)
        return
    if not isinstance(node, dict):
        return
    for keyword in ("oneOf", "anyOf"):
        choices = node.get(keyword)
        if isinstance(choices, list) and _any_event(choices):
            listed = {"oneOf": node.pop(keyword)}
            if "discriminator" in node:
                listed["discriminator"] = node.pop("discriminator")
            node["oneOf"] = [listed, {"$ref": REF + OTHER_EVENT}]
            return  # the listed events are references only: nothing further to open
    for value in node.values():
        _open(value)


def _any_event(choices: list[Any]) -> bool:
    names = [
        str(c.get("$ref", "")).removeprefix(REF) if isinstance(c, dict) else "" for c in choices
    ]
    return all(name in EVENTS for name in names) and not set(names) <= HAND_ENDS
