"""Shared steps of the webhook tests: an operator with a webhook, a finished match, waiting."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from service.tournament.operators import OperatorKeys
from tests.tournament.play import Client, Json, Table, bearer, create_table, play_commands

TOURNAMENT_SCOPES = ("matches:create", "webhooks:manage")
SECRET = "a-test-secret-of-enough-length"

KIND_OF_EVENT = {
    "match_created": "match_created",
    "cards_cut": "match_started",
    "scored": "hand_end",
    "hand_drawn": "hand_end",
    "game_won": "game_end",
    "match_won": "match_end",
}


async def operator_with_webhook(
    client: Client, keys: OperatorKeys, url: str, name: str, **webhook: Any
) -> tuple[str, str]:
    """A key for a new operator, and the id of the webhook it registered at ``url``."""
    key = (await keys.create_key(name, TOURNAMENT_SCOPES)).key
    response = await client.post(
        "/webhooks", json={"url": url, "secret": SECRET, **webhook}, headers=bearer(key)
    )
    assert response.status_code == 201, response.text
    return key, str(response.json()["webhook_id"])


async def finished_match(client: Client, key: str | None, **extra: Any) -> Table:
    table = await create_table(client, operator_key=key, **extra)
    await play_commands(client, table)
    return table


async def ends_of(client: Client, table: Table) -> list[Json]:
    """The match's creation, start, and hand, game and match ends, as a spectator sees them."""
    events = (await client.get(f"/matches/{table.match_id}/events")).json()["events"]
    return [e for e in events if e["event"]["type"] in KIND_OF_EVENT]


async def deliveries(client: Client, key: str, webhook_id: str) -> list[Json]:
    """Every delivery of the webhook, page after page (a long match makes more than one)."""
    found: list[Json] = []
    after = 0
    while True:
        response = await client.get(
            f"/webhooks/{webhook_id}/deliveries", params={"after": after}, headers=bearer(key)
        )
        assert response.status_code == 200, response.text
        page = response.json()
        found += page["deliveries"]
        if not page["deliveries"]:
            return found
        after = page["next"]


async def eventually(check: Callable[[], Awaitable[bool]], *, timeout: float = 15.0) -> None:
    """Wait until ``check()`` holds, looking again every 50 ms."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.05)


def expected_signature(secret: str, timestamp: str, body: bytes) -> str:
    """Computed here from the documented formula, not with the service's own code."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()
