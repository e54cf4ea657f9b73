"""The composition root: ``create_app(settings)`` wires the database, the store, the use cases
and the controllers. Nothing connects at import time; the lifespan opens and closes it all."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from litestar import Litestar
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from adapters.postgres.database import open_database
from adapters.postgres.delivery_queue import PostgresDeliveryQueue
from adapters.postgres.event_store import PostgresEventStore, open_pool
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from adapters.postgres.seed_commitments import PostgresSeedCommitmentStore
from adapters.postgres.wakeups import PostgresWakeups
from adapters.postgres.webhook_dispatch import PostgresWebhookDispatch
from adapters.postgres.webhook_subscriptions import PostgresWebhookSubscriptions
from adapters.webhook_sender import UrllibSender
from service.bots.background import running_bots
from service.bots.runner import BotRunner
from service.fairness.commitments import SeedCommitments
from service.matches.use_cases import MatchService
from service.store.match_streams import MatchStreams
from service.tournament.feed import GlobalFeed
from service.tournament.operators import OperatorKeys
from service.tournament.webhooks.runner import running_webhooks
from service.tournament.webhooks.subscriptions import SubscriptionService
from web.commands import CommandsController
from web.commitments import CommitmentsController
from web.dependencies import provide_bots, provide_matches, provide_wakeups
from web.docs import BEARER
from web.events import EventsController
from web.feed import FeedController, provide_feed
from web.health import health
from web.matches import MatchesController
from web.operators import OPERATOR_KEY, provide_operator_keys
from web.problems import handle_exception
from web.records import RecordsController
from web.request_log import RequestLogMiddleware, configure_logging
from web.results import ResultController
from web.settings import Settings
from web.stream import StreamController
from web.views import ViewController
from web.webhooks import WebhooksController, provide_webhooks

DOCS_PATH = "/docs"


def create_app(settings: Settings) -> Litestar:
    @asynccontextmanager
    async def resources(app: Litestar) -> AsyncIterator[None]:
        async with (
            _database_url(settings) as url,
            open_pool(
                url, min_size=settings.pool_min_size, max_size=settings.pool_max_size
            ) as pool,
        ):
            wakeups = PostgresWakeups(url)
            await wakeups.start()
            store = PostgresEventStore(pool)
            streams = MatchStreams(store, snapshot_every=settings.snapshot_every)
            app.state.pool = pool
            app.state.wakeups = wakeups
            registry = PostgresMatchRegistry(pool)
            commitments = SeedCommitments(PostgresSeedCommitmentStore(pool))
            app.state.matches = MatchService(streams, registry, commitments)
            app.state.bots = BotRunner(app.state.matches)
            app.state.operator_keys = OperatorKeys(PostgresOperatorKeyStore(pool), registry)
            app.state.feed = GlobalFeed(store)
            app.state.webhooks = SubscriptionService(PostgresWebhookSubscriptions(pool))
            sender = UrllibSender(
                threads=settings.webhooks.batch_size, timeout=settings.webhooks.timeout_seconds
            )
            try:
                async with (
                    running_webhooks(
                        store,
                        PostgresWebhookDispatch(pool),
                        PostgresDeliveryQueue(pool, settings.webhooks),
                        sender,
                        settings.webhooks,
                    ),
                    running_bots(app.state.bots, wakeups, registry, store),
                ):
                    yield
            finally:
                sender.close()
                await store.close_wakeups()
                await wakeups.stop()

    configure_logging(settings.log_level)
    return Litestar(
        route_handlers=[
            MatchesController,
            ViewController,
            CommandsController,
            EventsController,
            StreamController,
            ResultController,
            RecordsController,
            CommitmentsController,
            FeedController,
            WebhooksController,
            health,
        ],
        dependencies={
            "matches": Provide(provide_matches, sync_to_thread=False),
            "wakeups": Provide(provide_wakeups, sync_to_thread=False),
            "bots": Provide(provide_bots, sync_to_thread=False),
            "operator_keys": Provide(provide_operator_keys, sync_to_thread=False),
            "feed": Provide(provide_feed, sync_to_thread=False),
            "webhooks": Provide(provide_webhooks, sync_to_thread=False),
        },
        lifespan=[resources],
        exception_handlers={Exception: handle_exception},
        middleware=[RequestLogMiddleware()],
        openapi_config=OpenAPIConfig(
            title="Gin Rummy service",
            version="1",
            description=(
                "Play Gin Rummy matches over HTTP. Create a match, keep each seat's token, "
                "read your view and send the commands it lists."
            ),
            path=DOCS_PATH,
            render_plugins=[SwaggerRenderPlugin()],
            components=Components(
                security_schemes={
                    BEARER: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A seat's token, from creating or joining a match",
                    ),
                    OPERATOR_KEY: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="An operator key, from `gin operator create-key`",
                    ),
                }
            ),
        ),
    )


def create_app_from_env() -> Litestar:
    """The app for a server started with ``--factory`` (each worker reads the environment)."""
    return create_app(Settings.from_env())


@asynccontextmanager
async def _database_url(settings: Settings) -> AsyncIterator[str]:
    if settings.database_url:
        yield settings.database_url
        return
    # No URL: the embedded server (started, or reused if another worker already did).
    database = await asyncio.to_thread(open_database, None, data_dir=Path(settings.data_dir))
    try:
        yield database.url
    finally:
        await asyncio.to_thread(database.close)
