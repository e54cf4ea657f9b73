"""The delivery queue contract: every adapter passes these, unchanged."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from service.errors import DeliveryNotFailed, WebhookNotFound
from service.ports.delivery_queue import Outcome
from service.ports.webhook_subscriptions import Delivery
from service.tournament.webhooks.settings import WebhookSettings
from tests.contract.webhooks.world import SECRET, World

SETTINGS = WebhookSettings(timeout_seconds=5, lease_seconds=30, max_attempts=3)


async def only_delivery(world: World, operator: str, webhook_id: str) -> Delivery:
    (delivery,) = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=10)
    return delivery


async def test_a_claim_leases_due_deliveries_with_what_sending_needs(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator, "http://127.0.0.1:9/hook")
    await world.pending(webhook_id, 3)

    claimed = await world.queue(SETTINGS).claim("worker", limit=2)

    assert len(claimed) == 2
    assert [c.body for c in claimed] == [b'{"n":1}', b'{"n":2}']
    assert {(c.kind, c.attempt, c.url, c.secret) for c in claimed} == {
        ("hand_end", 1, "http://127.0.0.1:9/hook", SECRET)
    }
    assert len({c.lease_token for c in claimed}) == 1
    delivery = (await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=1))[0]
    assert (delivery.attempts, [a.worker for a in delivery.attempt_log]) == (1, ["worker"])
    assert delivery.attempt_log[0].finished_at is None


async def test_two_claimers_at_once_never_get_the_same_delivery(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 12)
    first, second = world.queue(SETTINGS), world.queue(SETTINGS)

    batches = await asyncio.gather(
        *(queue.claim(f"worker-{i}", limit=8) for i, queue in enumerate([first, second] * 2))
    )

    ids = [c.delivery_id for batch in batches for c in batch]
    assert len(ids) == len(set(ids)) == 12


async def test_a_leased_delivery_is_claimed_again_only_after_its_lease_runs_out(
    world: World,
) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    first, second = world.queue(SETTINGS), world.queue(SETTINGS)
    (claimed,) = await first.claim("worker-1", limit=5)

    await world.later(SETTINGS.lease_seconds - 5)
    assert await second.claim("worker-2", limit=5) == []
    await world.later(6)
    (reclaimed,) = await second.claim("worker-2", limit=5)

    assert reclaimed.delivery_id == claimed.delivery_id
    assert reclaimed.attempt == 2
    assert reclaimed.lease_token != claimed.lease_token


async def test_finishing_with_a_stale_lease_logs_the_attempt_and_changes_nothing_else(
    world: World,
) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)
    (stale,) = await queue.claim("worker-1", limit=1)
    await world.later(SETTINGS.lease_seconds + 1)
    (current,) = await queue.claim("worker-2", limit=1)

    await queue.finish(stale, Outcome(status_code=200))
    late = await only_delivery(world, operator, webhook_id)
    await queue.finish(stale, Outcome(error="ConnectionRefusedError"))
    later = await only_delivery(world, operator, webhook_id)

    for delivery in (late, later):
        assert (delivery.status, delivery.attempts, delivery.delivered_at) == ("pending", 2, None)
    assert later.attempt_log[0].status_code is None
    assert later.attempt_log[0].error == "ConnectionRefusedError"
    assert later.attempt_log[1].finished_at is None
    # The current holder still settles it.
    await queue.finish(current, Outcome(status_code=200))
    assert (await only_delivery(world, operator, webhook_id)).status == "delivered"


async def test_a_delivered_delivery_is_never_claimed_again(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)
    (claimed,) = await queue.claim("worker", limit=1)

    await queue.finish(claimed, Outcome(status_code=201))
    await world.later(SETTINGS.lease_seconds + SETTINGS.retry_cap_seconds)

    assert await queue.claim("worker", limit=1) == []
    delivery = await only_delivery(world, operator, webhook_id)
    assert (delivery.status, delivery.attempt_log[0].status_code) == ("delivered", 201)


async def test_a_failed_attempt_is_retried_after_its_backoff(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)
    (claimed,) = await queue.claim("worker", limit=1)

    await queue.finish(claimed, Outcome(status_code=503))

    delivery = await only_delivery(world, operator, webhook_id)
    assert (delivery.status, delivery.last_error) == ("pending", "the receiver answered 503")
    await world.later(SETTINGS.backoff(1) - 2)
    assert await queue.claim("worker", limit=1) == []
    await world.later(3)
    (again,) = await queue.claim("worker", limit=1)
    assert again.attempt == 2


async def test_a_delivery_fails_for_good_after_the_last_attempt(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)

    for attempt in range(1, SETTINGS.max_attempts + 1):
        (claimed,) = await queue.claim("worker", limit=1)
        assert claimed.attempt == attempt
        await queue.finish(claimed, Outcome(error="TimeoutError"))
        await world.later(SETTINGS.retry_cap_seconds + 1)

    assert await queue.claim("worker", limit=1) == []
    delivery = await only_delivery(world, operator, webhook_id)
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        "failed",
        SETTINGS.max_attempts,
        "TimeoutError",
    )


async def test_a_last_attempt_that_never_finished_fails_the_delivery(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    once = WebhookSettings(timeout_seconds=5, lease_seconds=30, max_attempts=1)
    queue = world.queue(once)
    await queue.claim("worker-that-dies", limit=1)

    await world.later(once.lease_seconds + 1)

    assert await queue.claim("worker", limit=1) == []
    delivery = await only_delivery(world, operator, webhook_id)
    assert (delivery.status, delivery.last_error) == ("failed", "the last attempt never finished")


async def test_deliveries_of_a_deleted_subscription_are_not_claimed(world: World) -> None:
    operator = await world.new_operator()
    kept, deleted = await world.subscribe(operator), await world.subscribe(operator)
    await world.pending(kept, 1)
    await world.pending(deleted, 2)

    await world.subscriptions.delete(operator, deleted)
    claimed = await world.queue(SETTINGS).claim("worker", limit=10)

    (delivery,) = await world.subscriptions.deliveries(operator, kept, after=0, limit=10)
    assert [c.delivery_id for c in claimed] == [delivery.delivery_id]


async def test_a_failed_delivery_redelivered_gets_one_more_attempt_and_only_it(
    world: World,
) -> None:
    operator, stranger = await world.new_operator(), await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)
    for _ in range(SETTINGS.max_attempts):
        (claimed,) = await queue.claim("worker", limit=1)
        await queue.finish(claimed, Outcome(status_code=500))
        await world.later(SETTINGS.retry_cap_seconds + 1)
    failed = await only_delivery(world, operator, webhook_id)

    with pytest.raises(WebhookNotFound):
        await world.subscriptions.redeliver(stranger, webhook_id, failed.delivery_id)
    with pytest.raises(WebhookNotFound):
        await world.subscriptions.redeliver(operator, webhook_id, failed.delivery_id + 1000)
    await world.subscriptions.redeliver(operator, webhook_id, failed.delivery_id)
    with pytest.raises(DeliveryNotFailed):  # pending again, not failed
        await world.subscriptions.redeliver(operator, webhook_id, failed.delivery_id)
    (again,) = await queue.claim("worker", limit=1)
    await queue.finish(again, Outcome(status_code=500))
    await world.later(SETTINGS.retry_cap_seconds + 1)

    assert again.attempt == SETTINGS.max_attempts + 1
    assert again.body == b'{"n":1}'
    assert await queue.claim("worker", limit=1) == []
    delivery = await only_delivery(world, operator, webhook_id)
    assert (delivery.status, delivery.attempts) == ("failed", SETTINGS.max_attempts + 1)
    assert [a.attempt for a in delivery.attempt_log] == list(range(1, SETTINGS.max_attempts + 2))


async def test_a_rotated_secret_signs_beside_the_new_one_until_its_overlap_ends(
    world: World,
) -> None:
    operator, stranger = await world.new_operator(), await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 2)
    queue = world.queue(SETTINGS)
    future, past = datetime(2999, 1, 1, tzinfo=UTC), datetime(2001, 1, 1, tzinfo=UTC)

    with pytest.raises(WebhookNotFound):
        await world.subscriptions.rotate_secret(stranger, webhook_id, "x" * 20, future)
    await world.subscriptions.rotate_secret(operator, webhook_id, "next-secret-here", future)
    (during,) = await queue.claim("worker", limit=1)
    await world.subscriptions.rotate_secret(operator, webhook_id, "last-secret-here", past)
    (after,) = await queue.claim("worker", limit=1)

    assert (during.secret, during.previous_secret) == ("next-secret-here", SECRET)
    assert (after.secret, after.previous_secret) == ("last-secret-here", None)
