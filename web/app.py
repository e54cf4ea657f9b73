"""The composition root: ``create_app(settings)`` wires the database, the store, the use cases
and the controllers. Nothing connects at import time; the lifespan opens and closes it all."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from litestar import Litestar, Request
from litestar.config.compression import CompressionConfig
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from adapters.dns_resolver import SystemResolver
from adapters.ed25519_signer import key_from_file
from adapters.no_metrics import NoMetrics
from adapters.oidc_verifier import PyJwtVerifier
from adapters.postgres.database import open_database
from adapters.postgres.deadlines import PostgresDeadlines
from adapters.postgres.delivery_queue import PostgresDeliveryQueue
from adapters.postgres.event_store import Pool, PostgresEventStore, open_pool
from adapters.postgres.identities import PostgresIdentities
from adapters.postgres.idle_matches import PostgresIdleMatches
from adapters.postgres.match_creations import PostgresMatchCreations
from adapters.postgres.match_registry import PostgresMatchRegistry
from adapters.postgres.operator_keys import PostgresOperatorKeyStore
from adapters.postgres.player_invites import PostgresPlayerInvites
from adapters.postgres.players import PostgresPlayers
from adapters.postgres.quick_match import PostgresQuickMatchQueue
from adapters.postgres.readiness import readiness_probe
from adapters.postgres.roles import privilege_warning
from adapters.postgres.seed_commitments import PostgresSeedCommitmentStore
from adapters.postgres.sessions import PostgresSessions
from adapters.postgres.stream_tickets import PostgresStreamTicketStore
from adapters.postgres.wakeups import PostgresWakeups
from adapters.postgres.webhook_dispatch import PostgresWebhookDispatch
from adapters.postgres.webhook_subscriptions import PostgresWebhookSubscriptions
from adapters.prometheus import PrometheusMetrics
from adapters.published_log_file import published_log
from adapters.webhook_sender import UrllibSender
from service.accounts.sessions import Sessions
from service.accounts.sign_in import SignIn
from service.audit.log_checkpoints import LogTree
from service.audit.log_proofs import LogProver
from service.audit.notary import Notary
from service.audit.restore_check import GuardedEventStore, PublishingLogNotary, RestoreGuard
from service.bots.background import running_bots
from service.bots.runner import BotRunner
from service.errors import DatabaseUnavailable
from service.fairness.commitments import SeedCommitments
from service.matches.abandonment import Abandonment
from service.matches.deadline_timer import DeadlineTimer, running_deadlines
from service.matches.idempotent import IdempotentCreations
from service.matches.metered import MeteredMatchService
from service.matches.play import MatchPlays
from service.matches.stream_tickets import StreamTickets
from service.players.accounts import Accounts
from service.players.invites import Invitations
from service.players.projector import Projector
from service.players.quick_match import QuickMatch
from service.players.running import running_projector, running_quick_match_repair
from service.ports.clock import system_clock
from service.store.heard_versions import HeardVersions
from service.store.match_streams import MatchStreams
from service.tournament.feed import GlobalFeed
from service.tournament.matches import OperatorMatches
from service.tournament.operators import OperatorKeys
from service.tournament.rounds import Rounds
from service.tournament.webhooks.destinations import Destinations
from service.tournament.webhooks.guarded import GuardedSender
from service.tournament.webhooks.metered import MeteredSender
from service.tournament.webhooks.runner import running_webhooks
from service.tournament.webhooks.subscriptions import SubscriptionService
from web.accounts import PLAYER_SESSION, IdentitiesController, SessionsController
from web.adjudication import AdjudicationController
from web.allowed_methods import allow_every_method
from web.checkpoints import CheckpointsController
from web.client import client_files
from web.commands import CommandsController
from web.commitments import CommitmentsController
from web.cors import cors_config, refused_preflight_as_problem
from web.dependencies import (
    provide_bots,
    provide_matches,
    provide_plays,
    provide_wakeups,
)
from web.docs import BEARER
from web.events import EventsController
from web.feed import FeedController, provide_feed
from web.health import health, live, ready
from web.invites import InvitesController, provide_invitations
from web.limits import LimitsMiddleware, close_after_unread_body
from web.live_streams import ending_live_streams
from web.log_proofs import LogProofsController
from web.matches import MatchesController, provide_creations
from web.metrics import counting_problems, metrics_endpoint
from web.openapi_contract import ClientDocument
from web.operator_matches import OperatorMatchesController, provide_operator_matches
from web.operators import OPERATOR_KEY, provide_operator_keys
from web.parent_death import stop_with_parent
from web.players import PLAYER_CREDENTIAL, PlayersController, provide_accounts
from web.problems import handle_exception
from web.quick_match import QuickMatchController, provide_quick_match
from web.rate_limits import rate_limit_middleware
from web.records import RecordsController
from web.request_contract import check_request
from web.request_log import RequestLogMiddleware, configure_logging
from web.restore_guard import checking_restore, refuse_writes_after_restore
from web.results import ResultController
from web.rounds import RoundsController, provide_rounds
from web.seat_tokens import SeatTokenController
from web.settings import Settings
from web.stream import StreamController
from web.stream_tickets import StreamTicketsController, provide_stream_tickets
from web.views import ViewController
from web.webhooks import WebhooksController, provide_webhooks

if TYPE_CHECKING:
    from litestar.plugins import PluginProtocol
    from opentelemetry.trace import TracerProvider

DOCS_PATH = "/docs"


async def before_request(request: Request[Any, Any, Any]) -> None:
    await check_request(request)
    await refuse_writes_after_restore(request)


STREAMS = r"/stream$"


def create_app(settings: Settings, *, tracer_provider: TracerProvider | None = None) -> Litestar:
    """The app; ``tracer_provider`` receives its spans when ``settings.tracing`` is on."""
    metrics = PrometheusMetrics() if settings.metrics else NoMetrics()

    @asynccontextmanager
    async def resources(app: Litestar) -> AsyncIterator[None]:
        async with (
            _database_url(settings) as url,
            open_pool(
                url,
                min_size=settings.pool_min_size,
                max_size=settings.pool_max_size,
                timeout=settings.database_timeout_seconds,
                hold_timeout=settings.database_timeout_seconds,
                wait=False,  # serve 503s during an outage at startup rather than wait it out
            ) as pool,
        ):
            wakeups = PostgresWakeups(url)
            heard = HeardVersions()
            wakeups.watch(heard)
            await wakeups.start()
            postgres_store = PostgresEventStore(pool)
            registry = PostgresMatchRegistry(pool)
            published = published_log(settings.published_log_path(), pool)
            guard = RestoreGuard(LogTree(postgres_store, registry), published)
            app.state.restore_guard = guard
            store = GuardedEventStore(postgres_store, metrics, guard)
            streams = MatchStreams(store, snapshot_every=settings.snapshot_every, heard=heard)
            app.state.pool = pool
            app.state.metrics = metrics
            metrics.watch(pool=pool.get_stats, waiting=wakeups.waiting)
            privileges = asyncio.create_task(_warn_if_too_powerful(pool))
            # Done before serving when the database answers; else it goes on in the background.
            await asyncio.wait({privileges}, timeout=settings.database_timeout_seconds)
            app.state.readiness = await asyncio.to_thread(readiness_probe, pool)
            app.state.wakeups = wakeups
            commitments = SeedCommitments(PostgresSeedCommitmentStore(pool))
            app.state.matches = MeteredMatchService(streams, registry, commitments, metrics=metrics)
            app.state.bots = BotRunner(app.state.matches)
            app.state.stream_tickets = StreamTickets(PostgresStreamTicketStore(pool))
            app.state.creations = IdempotentCreations(PostgresMatchCreations(pool))
            app.state.operator_matches = OperatorMatches(registry, store)
            app.state.rounds = Rounds(app.state.matches, app.state.creations)
            app.state.plays = MatchPlays(app.state.matches, app.state.bots)
            signer = await asyncio.to_thread(key_from_file, settings.signing_key_path())
            app.state.notary = Notary(
                signer, store, links=app.state.matches.fairness.links, receipts=settings.receipts
            )
            app.state.log_notary = PublishingLogNotary(
                signer, LogTree(store, registry), published, system_clock
            )
            app.state.log_prover = LogProver(store, registry)
            app.state.operator_keys = OperatorKeys(PostgresOperatorKeyStore(pool), registry)
            app.state.feed = GlobalFeed(store, registry)
            destinations = Destinations(SystemResolver(), settings.webhooks.allowed_networks)
            players = PostgresPlayers(pool, wake_here=wakeups.wake)
            app.state.accounts = Accounts(players, app.state.matches)
            app.state.matches.player_seat = app.state.accounts.seat_for_credential
            app.state.sign_in = signing_in(pool, app.state.accounts, settings)
            app.state.invitations = Invitations(
                PostgresPlayerInvites(pool, players), app.state.accounts, times=settings.players
            )
            app.state.quick_match = QuickMatch(
                PostgresQuickMatchQueue(pool),
                app.state.accounts,
                timeout=settings.players.quick_match_wait,
            )
            sender = MeteredSender(
                GuardedSender(
                    UrllibSender(
                        threads=settings.webhooks.batch_size,
                        timeout=settings.webhooks.timeout_seconds,
                    ),
                    destinations,
                ),
                metrics,
            )
            app.state.webhooks = SubscriptionService(
                PostgresWebhookSubscriptions(pool), destinations, sender=sender
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
                    running_deadlines(
                        DeadlineTimer(
                            PostgresDeadlines(pool),
                            app.state.matches,
                            abandonment=Abandonment(
                                PostgresIdleMatches(pool),
                                app.state.matches,
                                after_seconds=settings.abandon_after_seconds,
                            ),
                        ),
                        wakeups,
                    ),
                    running_projector(Projector(store, players, app.state.matches), wakeups),
                    running_quick_match_repair(app.state.quick_match),
                    checking_restore(guard),
                    # Left first on shutdown, while the store still answers the streams.
                    ending_live_streams(wakeups.wake_all) as app.state.live_streams,
                ):
                    yield
            finally:
                privileges.cancel()
                sender.close()
                await players.close()
                await postgres_store.close_wakeups()
                await wakeups.stop()

    configure_logging(settings.log_level)
    problems = counting_problems(handle_exception, metrics)
    return Litestar(
        route_handlers=[
            MatchesController,
            ViewController,
            CommandsController,
            EventsController,
            StreamController,
            StreamTicketsController,
            ResultController,
            AdjudicationController,
            RecordsController,
            CheckpointsController,
            LogProofsController,
            CommitmentsController,
            FeedController,
            WebhooksController,
            RoundsController,
            SeatTokenController,
            OperatorMatchesController,
            PlayersController,
            SessionsController,
            IdentitiesController,
            QuickMatchController,
            InvitesController,
            health,
            metrics_endpoint,
            live,
            ready,
            client_files(),
        ],
        dependencies={
            "matches": Provide(provide_matches, sync_to_thread=False),
            "wakeups": Provide(provide_wakeups, sync_to_thread=False),
            "bots": Provide(provide_bots, sync_to_thread=False),
            "plays": Provide(provide_plays, sync_to_thread=False),
            "operator_keys": Provide(provide_operator_keys, sync_to_thread=False),
            "feed": Provide(provide_feed, sync_to_thread=False),
            "webhooks": Provide(provide_webhooks, sync_to_thread=False),
            "stream_tickets": Provide(provide_stream_tickets, sync_to_thread=False),
            "creations": Provide(provide_creations, sync_to_thread=False),
            "rounds": Provide(provide_rounds, sync_to_thread=False),
            "operator_matches": Provide(provide_operator_matches, sync_to_thread=False),
            "accounts": Provide(provide_accounts, sync_to_thread=False),
            "invitations": Provide(provide_invitations, sync_to_thread=False),
            "quick_match": Provide(provide_quick_match, sync_to_thread=False),
        },
        lifespan=[resources],
        exception_handlers={Exception: problems},
        middleware=[
            RequestLogMiddleware(metrics, problems),
            LimitsMiddleware(settings.read_timeout_seconds),
            *rate_limit_middleware(settings.rate_limits),
        ],
        request_max_body_size=settings.max_body_bytes,
        plugins=_plugins(settings, tracer_provider),
        # Same origin needs no CORS: only other origins named in the settings get it.
        cors_config=cors_config(settings.cors_origins),
        before_request=before_request,
        before_send=[refused_preflight_as_problem, close_after_unread_body, allow_every_method],
        # Records and long event feeds shrink several times over; live streams stay unbuffered.
        compression_config=CompressionConfig(
            backend="brotli", brotli_gzip_fallback=True, exclude=STREAMS
        ),
        openapi_config=OpenAPIConfig(
            title="Gin Rummy service",
            version="1",
            description=(
                "Play Gin Rummy matches over HTTP. Create a match, keep each seat's token, "
                "read your view and send the commands it lists."
            ),
            path=DOCS_PATH,
            render_plugins=[SwaggerRenderPlugin(), ClientDocument()],
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
                    PLAYER_CREDENTIAL: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A player's credential, from `POST /players`, or a"
                        " session's access token, from `POST /sessions/...`",
                    ),
                    PLAYER_SESSION: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A session's access token, from `POST /sessions/...`",
                    ),
                }
            ),
        ),
    )


def _plugins(settings: Settings, tracer_provider: TracerProvider | None) -> list[PluginProtocol]:
    if not settings.tracing:
        return []
    # Imported only when switched on: OpenTelemetry is a good part of a second to import.
    from web.tracing import tracing_plugins

    return [*tracing_plugins(tracer_provider)]


def signing_in(pool: Pool, accounts: Accounts, settings: Settings) -> SignIn:
    """Sessions, identities and the trusted issuers; a session's access token opens whatever
    the player's credential opens."""
    sessions = Sessions(PostgresSessions(pool), settings.accounts)
    accounts.access_holder = sessions.player_of
    verifier = PyJwtVerifier(
        settings.accounts.issuers,
        leeway_seconds=settings.accounts.leeway_seconds,
        cache_seconds=settings.accounts.jwks_cache_seconds,
    )
    return SignIn(accounts, sessions, PostgresIdentities(pool), verifier)


def create_app_from_env() -> Litestar:
    """The app for a server started with ``--factory`` (each worker reads the environment)."""
    stop_with_parent()
    app = create_app(Settings.from_env())
    # What is made by now (modules, the app, its routes and schemas) lives as long as the
    # process: frozen, the garbage collector stops walking it again. Over 15 s of commands at
    # 8 clients (bench/floor.py's C), collections took 7.6% of the server's CPU, and 0.7% frozen.
    gc.freeze()
    return app


async def _warn_if_too_powerful(pool: Pool) -> None:
    # Once per process, at WARNING: the service runs, but it could undo its own protections.
    # In the background, once the database answers: the service starts during an outage too.
    while True:
        try:
            async with pool.connection() as connection:
                warning = await privilege_warning(connection)
            break
        except DatabaseUnavailable:
            await asyncio.sleep(1.0)
    if warning is not None:
        logging.getLogger("gin.database").warning(warning)


@asynccontextmanager
async def _database_url(settings: Settings) -> AsyncIterator[str]:
    if settings.database_url:
        yield settings.database_url
        return
    # No URL: the embedded server (started, or reused if another worker already did).
    database = await asyncio.to_thread(open_database, None, data_dir=Path(settings.data_dir))
    try:
        yield database.service_url
    finally:
        await asyncio.to_thread(database.close)
