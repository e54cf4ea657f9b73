"""``GET /metrics``: every metric family in Prometheus' text format, labelled only by closed
sets (route templates, command types, problem kinds), so never a token, a match id or a card."""

from __future__ import annotations

import json
import random
import re

from litestar import Litestar
from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.api.any_size import EVERY_SIZE, create_at, play_one
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


def applied(counted: dict[tuple[str, tuple[tuple[str, str], ...]], float], type: str) -> float:
    return counted.get(("gin_commands_total", (("outcome", "applied"), ("type", type))), 0)


# Commands with no card: at any moment some of them are not among a seat's legal actions.
CARDLESS = ("take_upcard", "pass_upcard", "draw_from_stock", "draw_from_discard", "finish_layoff")


@EVERY_SIZE
async def test_a_command_is_counted_at_every_table_size(client: Client, seats: int) -> None:
    table = await create_at(client, seats, options={"game_target": 10_000, "match_target": 0})
    before = samples((await client.get("/metrics")).text)
    rng = random.Random(seats)
    sent = [(await play_one(client, table, rng)).request for _ in range(3)]
    types = [json.loads(request.content)["type"] for request in sent]
    view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
    legal = {action["type"] for action in view["legal_actions"]}
    illegal = next(type for type in CARDLESS if type not in legal)
    refused = await client.post(
        f"{table.path}/commands", json={"type": illegal}, headers=table.headers(0)
    )
    assert refused.status_code in (409, 422), refused.text

    after = samples((await client.get("/metrics")).text)

    for type in set(types):
        assert applied(after, type) - applied(before, type) == types.count(type)
    counted = ("gin_commands_total", (("outcome", "refused"), ("type", illegal)))
    assert after.get(counted, 0) - before.get(counted, 0) == 1
