"""The webhook subscriptions contract: every adapter passes these, unchanged."""

from __future__ import annotations

import uuid

import msgspec
import pytest

from service.errors import WebhookNotFound
from service.ports.delivery_queue import Outcome
from service.tournament.webhooks.settings import WebhookSettings
from tests.contract.webhooks.world import SECRET, World

SETTINGS = WebhookSettings(max_attempts=3)


async def test_a_new_subscription_is_returned_with_its_secret_and_listed_without(
    world: World,
) -> None:
    operator = await world.new_operator()
    webhook_id = str(uuid.uuid4())

    created = await world.subscriptions.create(
        operator, webhook_id, "https://example.test/a", SECRET, ["match_end", "hand_end"]
    )

    assert (created.webhook_id, created.url, created.secret) == (
        webhook_id,
        "https://example.test/a",
        SECRET,
    )
    assert created.events == ["match_end", "hand_end"]
    (listed,) = await world.subscriptions.live(operator)
    assert (listed.webhook_id, listed.url, listed.events) == (
        webhook_id,
        created.url,
        created.events,
    )
    assert listed.created_at == created.created_at
    assert not hasattr(listed, "secret")


async def test_an_operator_lists_only_its_own_live_subscriptions_oldest_first(
    world: World,
) -> None:
    operator, other = await world.new_operator(), await world.new_operator()
    first = await world.subscribe(operator, "https://example.test/1")
    second = await world.subscribe(operator, "https://example.test/2")
    await world.subscribe(other, "https://example.test/3")

    listed = await world.subscriptions.live(operator)

    assert {w.webhook_id for w in listed} == {first, second}
    assert [(w.created_at, w.webhook_id) for w in listed] == sorted(
        (w.created_at, w.webhook_id) for w in listed
    )


async def test_a_deleted_subscription_is_no_longer_live_and_cannot_be_deleted_again(
    world: World,
) -> None:
    operator = await world.new_operator()
    kept, deleted = await world.subscribe(operator), await world.subscribe(operator)

    await world.subscriptions.delete(operator, deleted)

    assert [w.webhook_id for w in await world.subscriptions.live(operator)] == [kept]
    with pytest.raises(WebhookNotFound):
        await world.subscriptions.delete(operator, deleted)


async def test_an_operator_cannot_delete_or_read_another_operators_subscription(
    world: World,
) -> None:
    owner, other = await world.new_operator(), await world.new_operator()
    webhook_id = await world.subscribe(owner)

    with pytest.raises(WebhookNotFound):
        await world.subscriptions.delete(other, webhook_id)
    with pytest.raises(WebhookNotFound):
        await world.subscriptions.deliveries(other, webhook_id, after=0, limit=10)
    with pytest.raises(WebhookNotFound):
        await world.subscriptions.deliveries(owner, str(uuid.uuid4()), after=0, limit=10)
    assert [w.webhook_id for w in await world.subscriptions.live(owner)] == [webhook_id]


async def test_deleting_cancels_pending_deliveries_and_keeps_them_readable(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 3)
    queue = world.queue(SETTINGS)
    (done,) = await queue.claim("worker", limit=1)
    await queue.finish(done, Outcome(status_code=204))

    await world.subscriptions.delete(operator, webhook_id)

    found = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=10)
    assert [d.status for d in found] == ["delivered", "cancelled", "cancelled"]
    assert [d.last_error for d in found[1:]] == ["the webhook was deleted"] * 2
    assert await queue.claim("worker", limit=10) == []


async def test_deliveries_are_paged_by_id_oldest_first_with_their_payloads(world: World) -> None:
    operator = await world.new_operator()
    webhook_id, other = await world.subscribe(operator), await world.subscribe(operator)
    match_id = await world.pending(webhook_id, 5)
    await world.pending(other, 2)

    first = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=3)
    rest = await world.subscriptions.deliveries(
        operator, webhook_id, after=first[-1].delivery_id, limit=3
    )

    ids = [d.delivery_id for d in first + rest]
    assert len(ids) == 5
    assert ids == sorted(set(ids))
    assert [d.event_position for d in first + rest] == [1, 2, 3, 4, 5]
    assert {(d.match_id, d.kind, d.status, d.attempts) for d in first + rest} == {
        (match_id, "hand_end", "pending", 0)
    }
    assert [msgspec.json.decode(d.payload) for d in rest] == [{"n": 4}, {"n": 5}]
    assert all(d.attempt_log == [] and d.delivered_at is None for d in first + rest)


async def test_each_attempt_is_read_back_with_the_delivery(world: World) -> None:
    operator = await world.new_operator()
    webhook_id = await world.subscribe(operator)
    await world.pending(webhook_id, 1)
    queue = world.queue(SETTINGS)
    (failed,) = await queue.claim("worker-a", limit=1)
    await queue.finish(failed, Outcome(status_code=500))
    await world.later(SETTINGS.backoff(1) + 1)
    (delivered,) = await queue.claim("worker-b", limit=1)
    await queue.finish(delivered, Outcome(status_code=200))

    (delivery,) = await world.subscriptions.deliveries(operator, webhook_id, after=0, limit=10)

    assert (delivery.status, delivery.attempts, delivery.last_error) == ("delivered", 2, None)
    assert delivery.delivered_at is not None
    log = [(a.attempt, a.worker, a.status_code, a.error) for a in delivery.attempt_log]
    assert log == [
        (1, "worker-a", 500, "the receiver answered 500"),
        (2, "worker-b", 200, None),
    ]
    assert all(a.finished_at is not None for a in delivery.attempt_log)
