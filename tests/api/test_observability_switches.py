"""``GIN_RECEIPTS`` and ``GIN_METRICS`` off (the reference of bench/observability_cost.py): a
command gets no receipt and nothing is counted; on (the default), both are there."""

from __future__ import annotations

import random

import msgspec
from litestar.testing import AsyncTestClient

from tests.api.conftest import settings_for
from tests.api.players import choose, create_table
from web.app import create_app


async def receipt_and_metrics(database_url: str, *, on: bool) -> tuple[bool, bytes]:
    settings = msgspec.structs.replace(settings_for(database_url), receipts=on, metrics=on)
    async with AsyncTestClient(app=create_app(settings)) as client:
        table = await create_table(client)
        view = (await client.get(f"{table.path}/view", headers=table.headers(0))).json()
        if view["turn"] != view["seat"]:
            view = (await client.get(f"{table.path}/view", headers=table.headers(1))).json()
        response = await client.post(
            f"{table.path}/commands",
            json=choose(view, random.Random(2)),
            headers=table.headers(view["seat"]),
        )
        assert response.status_code == 200, response.text
        return "gin-receipt" in response.headers, (await client.get("/metrics")).content


async def test_receipts_and_metrics_are_on_by_default_and_can_be_switched_off(
    database_url: str,
) -> None:
    receipt, metrics = await receipt_and_metrics(database_url, on=True)
    assert receipt
    assert b"gin_commands_total" in metrics
    receipt, metrics = await receipt_and_metrics(database_url, on=False)
    assert not receipt
    assert metrics == b""
