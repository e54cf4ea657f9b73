"""With ``GIN_TRACING`` on, every request is a span named after its route, and no span carries
a token or a card; off (the default), the app has no tracing at all."""

from __future__ import annotations

import random
import re

import msgspec
from litestar.testing import AsyncTestClient
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.api.conftest import settings_for
from tests.api.players import choose, create_table
from web.app import create_app

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs]|10[cdhs])\b")
COMMAND_ROUTE = "POST /matches/{match_id}/commands"


async def test_a_command_is_a_span_with_no_token_and_no_card(database_url: str) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    settings = msgspec.structs.replace(settings_for(database_url), tracing=True)
    app = create_app(settings, tracer_provider=provider)
    async with AsyncTestClient(app=app) as client:
        table = await create_table(client)
        view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
        seat = view["turn"]
        if seat != view["seat"]:
            view = (await client.get(f"{table.path}/view", headers=table.headers(seat))).json()
        response = await client.post(
            f"{table.path}/commands",
            json=choose(view, random.Random(1)),
            headers=table.headers(seat),
        )
        assert response.status_code == 200, response.text
        assert (await client.get("/health/live")).status_code == 200

    spans = exporter.get_finished_spans()
    commands = [span for span in spans if span.name == COMMAND_ROUTE]
    assert len(commands) == 1, [span.name for span in spans]
    attributes = dict(commands[0].attributes or {})
    assert attributes["http.method"] == "POST"
    assert attributes["http.status_code"] == 200
    assert not [span for span in spans if "/health" in span.name]
    for span in spans:
        for name, value in (span.attributes or {}).items():
            text = str(value)
            assert not any(token in text for token in table.tokens.values()), (span.name, name)
            assert not CARD.search(text), (span.name, name, text)


def test_tracing_is_off_by_default(database_url: str) -> None:
    app = create_app(settings_for(database_url))
    assert not [p for p in app.plugins if type(p).__name__ == "OpenTelemetryPlugin"]
