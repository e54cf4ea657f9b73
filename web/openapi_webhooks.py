"""The webhooks an operator's receiver is sent, in the client document's ``webhooks`` section
(OpenAPI 3.1): a match's news (``Payload``) and a player's news for a push relay
(``RelayBody``), each with its schema, which a delivery's ``payload`` is one of."""

from __future__ import annotations

from typing import Any

import msgspec

from service.players.relay import RelayBody
from service.tournament.webhooks.payloads import KINDS, PLAYER_KINDS, Payload

Json = dict[str, Any]
REF = "#/components/schemas/"
SIGNED = (
    "Signed with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and "
    "`webhook-signature` (docs/tournament.md); deliveries are at least once, so drop a "
    "repeated `event_id` or `notice_id`."
)


def add_webhooks(document: Json) -> None:
    schemas: Json = document["components"]["schemas"]
    _, components = msgspec.json.schema_components(
        [Payload, RelayBody], ref_template=REF + "{name}"
    )
    for name, schema in components.items():
        _nullable_as_one_of(schema)
        schemas.setdefault(name, schema)
    document["webhooks"] = {
        "matchNews": _hook("A match's news: made, started, a hand, game or match over", "Payload"),
        "playerNews": _hook("A player's news, for a push relay (`players:relay`)", "RelayBody"),
    }
    delivery = schemas.get("Delivery", {}).get("properties", {})
    if "payload" in delivery:
        delivery["payload"] = {
            "description": "The body sent, as the receiver got it",
            "oneOf": [{"$ref": REF + "Payload"}, {"$ref": REF + "RelayBody"}],
            "discriminator": {
                "propertyName": "kind",
                "mapping": {
                    **dict.fromkeys(KINDS, REF + "Payload"),
                    **dict.fromkeys(PLAYER_KINDS, REF + "RelayBody"),
                },
            },
        }


def _nullable_as_one_of(node: Any) -> None:
    """msgspec writes ``X | None`` as ``anyOf``; Litestar, and so the rest of the document,
    as ``oneOf``: one form, so the refinements (an id's ``format: uuid``) reach these too."""
    if isinstance(node, list):
        for item in node:
            _nullable_as_one_of(item)
        return
    if not isinstance(node, dict):
        return
    choices = node.get("anyOf")
    if isinstance(choices, list) and {"type": "null"} in choices and len(choices) == 2:
        node["oneOf"] = node.pop("anyOf")
    for value in node.values():
        _nullable_as_one_of(value)


def _hook(summary: str, schema: str) -> Json:
    return {
        "post": {
            "summary": summary,
            "description": SIGNED,
            "operationId": f"receive{schema}",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": REF + schema}}},
            },
            "responses": {"2XX": {"description": "Received: the delivery is done"}},
        }
    }
