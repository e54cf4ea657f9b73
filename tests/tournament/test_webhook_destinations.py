"""Registering a webhook to an address that is not public is refused over HTTP, and nothing is
stored. The app resolves with the system's resolver, so only address literals and localhost
are tried here: nothing is looked up beyond this machine, and nothing is sent anywhere."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.settings import WebhookSettings
from tests.tournament.conftest import new_key, running_app
from tests.tournament.play import Client, bearer

NO_EXCEPTIONS = WebhookSettings(enabled=False)  # the default: no private network allowed


@pytest.fixture(scope="module")
async def strict_client(database_url: str) -> AsyncIterator[Client]:
    async with running_app(database_url, NO_EXCEPTIONS) as client:
        yield client


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/hook",
        "http://[::1]:9/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.1/hook",
        "http://2130706433/hook",
        "http://0x7f000001/hook",
        "http://[::ffff:169.254.169.254]/hook",
    ],
)
async def test_a_webhook_to_a_private_or_metadata_address_is_refused_and_not_kept(
    strict_client: Client, keys: OperatorKeys, url: str
) -> None:
    key = await new_key(keys, f"Hooks {uuid.uuid4()}", "webhooks:manage")

    refused = await strict_client.post("/webhooks", json={"url": url}, headers=bearer(key))
    kept = await strict_client.get("/webhooks", headers=bearer(key))

    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["type"] == "/problems/webhook-url-refused"
    assert kept.json()["webhooks"] == []
