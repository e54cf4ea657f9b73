"""At least once across restarts: deliveries live in the database and are made from the event
log, so a new process over the same database finishes what an earlier one left."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec
import pytest

from adapters.postgres.event_store import open_pool
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.settings import WebhookSettings
from tests.tournament.conftest import FAST_WEBHOOKS, LOOPBACK, operator_keys, running_app
from tests.tournament.receiver import running_receiver
from tests.tournament.webhook_helpers import (
    deliveries,
    ends_of,
    eventually,
    finished_match,
    operator_with_webhook,
)

NO_WEBHOOKS = WebhookSettings(enabled=False, allowed_networks=LOOPBACK)
# Retries far enough apart that the first process, however slowly it stops, cannot use up
# its attempts (or reach the receiver's first 200) before the second process starts.
SLOW_RETRIES = msgspec.structs.replace(FAST_WEBHOOKS, retry_base_seconds=1.0, retry_cap_seconds=2.0)


@pytest.fixture
async def fresh_keys(fresh_database_url: str) -> AsyncIterator[OperatorKeys]:
    async with open_pool(fresh_database_url, min_size=1, max_size=1) as pool:
        yield operator_keys(pool)


async def test_a_pending_delivery_is_made_by_the_next_process_after_a_restart(
    fresh_database_url: str, fresh_keys: OperatorKeys
) -> None:
    with running_receiver(statuses=[500] * 3) as receiver:
        async with running_app(fresh_database_url, webhooks=SLOW_RETRIES) as first:
            key, webhook_id = await operator_with_webhook(
                first, fresh_keys, receiver.url, "Restarted", events=["match_end"]
            )
            await finished_match(first, key)

            async def failed_once() -> bool:
                found = await deliveries(first, key, webhook_id)
                log = found[0]["attempt_log"] if found else []
                return bool(log) and log[0]["status_code"] == 500

            await eventually(failed_once)
        receiver.statuses.clear()

        async with running_app(fresh_database_url, webhooks=SLOW_RETRIES) as second:

            async def delivered() -> bool:
                found = await deliveries(second, key, webhook_id)
                return bool(found[0]["status"] == "delivered")

            await eventually(delivered)
            [delivery] = await deliveries(second, key, webhook_id)

    log = delivery["attempt_log"]
    assert log[0]["status_code"] == 500
    assert log[-1]["status_code"] == 200
    assert log[0]["worker"] != log[-1]["worker"]
    assert [r.headers["X-Gin-Delivery"] for r in receiver.requests()] == [
        str(delivery["delivery_id"])
    ] * len(log)


async def test_ends_recorded_while_no_process_sent_webhooks_are_delivered_once_one_does(
    fresh_database_url: str, fresh_keys: OperatorKeys
) -> None:
    with running_receiver() as receiver:
        async with running_app(fresh_database_url, webhooks=NO_WEBHOOKS) as quiet:
            key, webhook_id = await operator_with_webhook(quiet, fresh_keys, receiver.url, "Late")
            table = await finished_match(quiet, key)
            ends = await ends_of(quiet, table)
            assert await deliveries(quiet, key, webhook_id) == []

        async with running_app(fresh_database_url, webhooks=FAST_WEBHOOKS) as sending:

            async def all_delivered() -> bool:
                found = await deliveries(sending, key, webhook_id)
                return len(found) == len(ends) and all(d["status"] == "delivered" for d in found)

            await eventually(all_delivered)
            found = await deliveries(sending, key, webhook_id)

    assert sorted(d["event_version"] for d in found) == [end["version"] for end in ends]
    assert len(receiver.requests()) == len(ends)
