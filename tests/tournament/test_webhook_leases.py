"""Several processes, one attempt at a time: the dispatcher's cursor lock, ``SKIP LOCKED``
claims and delivery leases, exercised with workers and dispatchers on pools of their own (as
separate server processes would have)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import psycopg
import pytest

from adapters.postgres.delivery_queue import PostgresDeliveryQueue
from adapters.postgres.event_store import Pool, PostgresEventStore, open_pool
from adapters.postgres.webhook_dispatch import PostgresWebhookDispatch
from adapters.webhook_sender import UrllibSender
from service.ports.delivery_queue import Outcome
from service.tournament.webhooks.dispatcher import Dispatcher
from service.tournament.webhooks.settings import WebhookSettings
from service.tournament.webhooks.worker import Worker
from tests.tournament.conftest import LOOPBACK, operator_keys, running_app
from tests.tournament.receiver import Receiver, running_receiver
from tests.tournament.webhook_helpers import finished_match, operator_with_webhook

# The app only records matches here; the tests run the dispatchers and workers themselves.
NO_WEBHOOKS = WebhookSettings(enabled=False, allowed_networks=LOOPBACK)
SHORT_LEASE = WebhookSettings(
    timeout_seconds=0.5, lease_seconds=1.0, batch_size=2, allowed_networks=LOOPBACK
)
# Leases far longer than a batch takes on a busy machine: none runs out while it is sent.
LONG_LEASE = WebhookSettings(
    timeout_seconds=5.0, lease_seconds=30.0, batch_size=2, allowed_networks=LOOPBACK
)


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    with running_receiver(delay=0.2) as running:
        yield running


@pytest.fixture
async def pools(fresh_database_url: str) -> AsyncIterator[tuple[Pool, Pool]]:
    """Two pools, standing for two server processes."""
    async with (
        open_pool(fresh_database_url, min_size=1, max_size=3) as first,
        open_pool(fresh_database_url, min_size=1, max_size=3) as second,
    ):
        yield first, second


@pytest.fixture
async def pending(fresh_database_url: str, pools: tuple[Pool, Pool], receiver: Receiver) -> int:
    """Three webhooks of one operator hear every end of a finished match; dispatched, how
    many deliveries are pending."""
    keys = operator_keys(pools[0])
    async with running_app(fresh_database_url, webhooks=NO_WEBHOOKS) as client:
        key, _ = await operator_with_webhook(client, keys, receiver.url, "Busy")
        for _ in range(2):
            response = await client.post(
                "/webhooks",
                json={"url": receiver.url, "secret": "x" * 16},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert response.status_code == 201
        await finished_match(client, key)
    dispatcher = dispatcher_on(pools[0])
    while await dispatcher.dispatch_once():
        pass
    return await _count(pools[0], "SELECT count(*) FROM webhook_deliveries")


def dispatcher_on(pool: Pool) -> Dispatcher:
    return Dispatcher(PostgresEventStore(pool), PostgresWebhookDispatch(pool))


async def _count(pool: Pool, query: str) -> int:
    async with pool.connection() as conn:
        cur = await conn.execute(query)
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def test_two_workers_never_attempt_the_same_delivery_at_once(
    pools: tuple[Pool, Pool], pending: int, receiver: Receiver
) -> None:
    senders = [UrllibSender(threads=2, timeout=LONG_LEASE.timeout_seconds) for _ in pools]
    workers = [
        Worker(PostgresDeliveryQueue(pool, LONG_LEASE), sender, LONG_LEASE, name=f"process-{i}")
        for i, (pool, sender) in enumerate(zip(pools, senders, strict=True))
    ]

    async def drain(worker: Worker) -> None:
        while await worker.deliver_once():
            pass

    await asyncio.gather(*(drain(worker) for worker in workers))
    for sender in senders:
        sender.close()

    sent = [r.headers["X-Gin-Delivery"] for r in receiver.requests()]
    assert pending >= 9
    assert len(sent) == len(set(sent)) == pending
    assert max(receiver.most_in_flight.values()) == 1
    attempts = await _count(pools[0], "SELECT count(*) FROM webhook_attempts")
    workers_used = await _count(pools[0], "SELECT count(DISTINCT worker) FROM webhook_attempts")
    assert attempts == pending
    assert workers_used == 2


async def test_a_claimed_delivery_waits_until_its_lease_runs_out(
    pools: tuple[Pool, Pool], pending: int
) -> None:
    first, second = (PostgresDeliveryQueue(pool, SHORT_LEASE) for pool in pools)
    claimed = await first.claim("process-0", limit=pending)
    assert len(claimed) == pending

    assert await second.claim("process-1", limit=pending) == []
    await asyncio.sleep(SHORT_LEASE.lease_seconds + 0.1)
    reclaimed = await second.claim("process-1", limit=pending)

    assert sorted(c.delivery_id for c in reclaimed) == sorted(c.delivery_id for c in claimed)
    assert {c.attempt for c in reclaimed} == {2}
    # The first process, back too late, records its attempt but moves nothing.
    await first.finish(claimed[0], Outcome(status_code=200))
    async with pools[0].connection() as conn:
        cur = await conn.execute(
            "SELECT status, lease_token::text FROM webhook_deliveries WHERE delivery_id = %s",
            (claimed[0].delivery_id,),
        )
        status, token = await cur.fetchone() or (None, None)
        cur = await conn.execute(
            "SELECT status_code FROM webhook_attempts WHERE delivery_id = %s AND attempt = 1",
            (claimed[0].delivery_id,),
        )
        logged = await cur.fetchone()
    assert (status, token) == ("pending", reclaimed[0].lease_token)
    assert logged == (200,)


async def test_a_claim_skips_a_delivery_locked_by_another_instead_of_waiting(
    fresh_database_url: str, pools: tuple[Pool, Pool], pending: int
) -> None:
    queue = PostgresDeliveryQueue(pools[1], SHORT_LEASE)
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as other:
        cur = await other.execute(
            "SELECT delivery_id FROM webhook_deliveries ORDER BY delivery_id LIMIT 1 FOR UPDATE"
        )
        locked = await cur.fetchone()
        assert locked is not None

        claimed = await asyncio.wait_for(queue.claim("process-1", limit=pending), timeout=5)

        await other.rollback()
    assert len(claimed) == pending - 1
    assert locked[0] not in {c.delivery_id for c in claimed}


async def test_a_second_dispatcher_skips_its_turn_while_one_holds_the_cursor(
    fresh_database_url: str, pools: tuple[Pool, Pool], pending: int
) -> None:
    dispatcher = dispatcher_on(pools[1])
    async with await psycopg.AsyncConnection.connect(fresh_database_url) as other:
        await other.execute("UPDATE webhook_cursor SET position = 0")  # holds the row lock

        passed = await asyncio.wait_for(dispatcher.dispatch_once(), timeout=5)

        await other.rollback()
    assert passed == 0


async def test_dispatching_the_same_events_again_adds_no_delivery(
    pools: tuple[Pool, Pool], pending: int
) -> None:
    async with pools[0].connection() as conn:
        await conn.execute("UPDATE webhook_cursor SET position = 0")  # as after a crash
    dispatcher = dispatcher_on(pools[0])

    while await dispatcher.dispatch_once():
        pass

    assert await _count(pools[0], "SELECT count(*) FROM webhook_deliveries") == pending
