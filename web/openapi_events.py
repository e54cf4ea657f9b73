"""Event types left open, as problem types are: within version 1 a new event type may appear
(docs/api.md, "Versions"), so wherever an event of any type may stand (a feed entry's ``data``,
an events page's ``event``, a replay's step, a table's event, a webhook payload's ``event``),
the document takes, after the types it lists, ``OtherEvent``: an object whose ``type`` is none
of the listed ones. A generated client gives each listed type its own class still, and parses
an event of a newer type into ``OtherEvent`` instead of failing on it; a validator matches every
event with exactly one schema, since ``OtherEvent`` leaves out the listed types.

The discriminator stays, mapping the listed types: a client that dispatches on it finds an
unlisted value in no mapping and takes the one schema left (OpenAPI 3.1, "Discriminator
Object": the mapping need not name every value)."""

from __future__ import annotations

from typing import Any, get_args

from domain import Event
from domain.formats import FormatEvent

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
            node["oneOf"] = [*node.pop(keyword), {"$ref": REF + OTHER_EVENT}]
            node.pop("discriminator", None)
    for value in node.values():
        _open(value)


def _any_event(choices: list[Any]) -> bool:
    names = [
        str(c.get("$ref", "")).removeprefix(REF) if isinstance(c, dict) else "" for c in choices
    ]
    return all(name in EVENTS for name in names) and not set(names) <= HAND_ENDS
