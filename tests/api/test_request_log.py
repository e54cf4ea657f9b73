"""Structured request logging: one JSON line per request, with what was asked and how it was
answered, and never a header or a body (so never a token, never a card)."""

from __future__ import annotations

import json

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.players import create_table
from tests.request_log_lines import Lines

Client = AsyncTestClient[Litestar]


async def test_each_request_is_one_json_line_without_tokens_or_cards(
    client: Client, log_lines: Lines
) -> None:
    table = await create_table(client)
    summary = (await client.get(table.path)).json()
    chooser = summary["table"]["turn"]
    choice = {"type": "choose_dealer", "dealer": 0}
    await client.post(f"{table.path}/commands", json=choice, headers=table.headers(chooser))
    view = (await client.get(f"{table.path}/view", headers=table.headers(chooser))).json()
    assert len(view["hand"]) >= 10
    refused = await client.get(f"{table.path}/view")
    assert refused.status_code == 401
    entries = [json.loads(line) for line in log_lines.lines]
    assert [(e["method"], e["path"], e["status"]) for e in entries] == [
        ("POST", "/matches", 201),
        ("GET", table.path, 200),
        ("POST", f"{table.path}/commands", 200),
        ("GET", f"{table.path}/view", 200),
        ("GET", f"{table.path}/view", 401),
    ]
    for entry in entries:
        assert entry["message"] == "request"
        assert entry["duration_ms"] >= 0
    text = "\n".join(log_lines.lines)
    for token in table.tokens.values():
        assert token not in text
    for card in view["hand"]:
        assert f'"{card}"' not in text
