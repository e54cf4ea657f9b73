"""The dispatcher and the worker as background tasks of a server process.

Every process runs both: the dispatcher's turn and the delivery leases keep them from doing the
same work twice. Each loop goes round again at once while it finds work, else sleeps
``poll_seconds``; a failure (the database restarting, say) is logged and the loop carries on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from service.errors import DatabaseUnavailable
from service.ports.delivery_queue import DeliveryQueue
from service.ports.delivery_sender import DeliverySender
from service.ports.event_store import EventStore
from service.ports.webhook_dispatch import WebhookDispatch
from service.stopping import stop_tasks
from service.tournament.webhooks.dispatcher import Dispatcher
from service.tournament.webhooks.settings import WebhookSettings
from service.tournament.webhooks.worker import Worker

_log = logging.getLogger("gin.webhooks")


@asynccontextmanager
async def running_webhooks(
    store: EventStore,
    dispatch: WebhookDispatch,
    queue: DeliveryQueue,
    sender: DeliverySender,
    settings: WebhookSettings,
) -> AsyncIterator[None]:
    if not settings.enabled:
        yield
        return
    dispatcher = Dispatcher(store, dispatch)
    worker = Worker(queue, sender, settings)
    tasks = [
        asyncio.create_task(
            _repeat(dispatcher.dispatch_once, dispatcher.page_size, settings.poll_seconds),
            name="gin-webhook-dispatcher",
        ),
        asyncio.create_task(
            _repeat(worker.deliver_once, settings.batch_size, settings.poll_seconds),
            name="gin-webhook-worker",
        ),
    ]
    try:
        yield
    finally:
        await stop_tasks(*tasks)


async def _repeat(step: Callable[[], Awaitable[int]], full: int, pause: float) -> None:
    while True:
        try:
            done = await step()
        except DatabaseUnavailable:
            # An outage, not a bug: no traceback every poll; the step is tried again.
            _log.warning("webhook step waits for the database")
            done = 0
        except Exception:
            _log.exception("webhook step failed; trying again shortly")
            done = 0
        if done < full:
            await asyncio.sleep(pause)
