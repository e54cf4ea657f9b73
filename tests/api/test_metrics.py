"""``GET /metrics``: every metric family in Prometheus' text format, labelled only by closed
sets (route templates, command types, problem kinds), so never a token, a match id or a card."""

from __future__ import annotations

import random
import re

from litestar import Litestar
from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.api.players import create_table, play_match

Client = AsyncTestClient[Litestar]

FAMILIES = {
    "gin_http_requests",
    "gin_http_request_duration_seconds",
    "gin_problems",
    "gin_commands",
    "gin_appends",
    "gin_appended_events",
    "gin_append_conflicts",
    "gin_webhook_deliveries",
    "gin_stream_subscribers",
    "gin_db_pool_size",
    "gin_db_pool_available",
    "gin_db_pool_max",
    "gin_db_requests_waiting",
}

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|10[cdhs])$", re.IGNORECASE)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_count_requests_commands_appends_and_problems_without_secrets(
    client: Client,
) -> None:
    table = await create_table(client)
    seen: set[str] = set()

    async def note_cards(seat: int, action: dict[str, object]) -> None:
        if isinstance(action.get("card"), str):
            seen.add(str(action["card"]))

    final = await play_match(client, table, random.Random(13), before_command=note_cards)
    cards = seen | set(final["hand"])
    assert cards
    over = await client.post(
        f"{table.path}/commands", json={"type": "draw_from_stock"}, headers=table.headers(0)
    )
    assert over.status_code == 409
    refused = await client.get(f"{table.path}/view")
    assert refused.status_code == 401
    missing = await client.get("/no/such/path")
    assert missing.status_code == 404

    response = await client.get("/metrics")

    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    families = {family.name for family in text_string_to_metric_families(text)}
    assert families >= FAMILIES
    counted = samples(text)
    commands = {
        dict(labels)["type"]: value
        for (name, labels), value in counted.items()
        if name == "gin_commands_total" and dict(labels)["outcome"] == "applied"
    }
    assert commands["discard"] >= 1
    assert commands["choose_dealer"] == 1
    assert counted["gin_appends_total", ()] >= sum(commands.values())
    late = (("outcome", "refused"), ("type", "draw_from_stock"))
    assert counted["gin_commands_total", late] == 1
    route = "/matches/{match_id}/commands"
    posted = (("method", "POST"), ("route", route), ("status", "200"))
    assert counted["gin_http_requests_total", posted] == sum(commands.values())
    unauthorized = (("status", "401"), ("type", "missing-token"))
    assert counted.get(("gin_problems_total", unauthorized), 0) >= 1
    assert counted.get(("gin_problems_total", (("status", "404"), ("type", "not-found"))), 0) >= 1
    assert counted["gin_db_pool_max", ()] == 20

    label_values = {value for _, labels in counted for _, value in labels if value not in ("+Inf",)}
    for value in label_values:
        assert table.match_id not in value
        assert not any(token in value for token in table.tokens.values())
        assert not CARD.match(value), value
        assert "/no/such/path" not in value
    for secret in [table.match_id, *table.tokens.values()]:
        assert secret not in text
    for card in cards:
        assert f'"{card}"' not in text
