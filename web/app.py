"""The app: ``create_app(settings)`` serves the service's parts (built by
``web/composition/server.py``) through the controllers, with the middleware, the problem
answers and the OpenAPI document. Nothing connects at import time; the lifespan opens and
closes it all."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from litestar import Litestar, Request
from litestar.config.compression import CompressionConfig
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from web.accounts import PLAYER_SESSION, IdentitiesController, SessionsController
from web.adjudication import AdjudicationController
from web.allowed_methods import allow_every_method
from web.checkpoints import CheckpointsController
from web.client import client_files
from web.commands import CommandsController
from web.commitments import CommitmentsController
from web.composition.server import running_service, service_metrics
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
    metrics = service_metrics(settings)

    @asynccontextmanager
    async def resources(app: Litestar) -> AsyncIterator[None]:
        async with running_service(settings, metrics) as service:
            for part in fields(service):  # each provider reads its part under this name
                setattr(app.state, part.name, getattr(service, part.name))
            async with (
                checking_restore(service.restore_guard),
                # Left first on shutdown, while the store still answers the streams.
                ending_live_streams(service.wakeups.wake_all) as app.state.live_streams,
            ):
                yield

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


def create_app_from_env() -> Litestar:
    """The app for a server started with ``--factory`` (each worker reads the environment)."""
    app = create_app(Settings.from_env())
    # A worker is told to stop (SIGTERM) when gin serve dies only once it has started: until
    # then it is killed outright, as one stuck while starting (on a lock held across the fork,
    # with the interpreter's own) could run no handler of that signal, nor its watcher thread.
    app.on_startup.append(stop_with_parent)
    # What is made by now (modules, the app, its routes and schemas) lives as long as the
    # process: frozen, the garbage collector stops walking it again. Over 15 s of commands at
    # 8 clients (bench/floor.py's C), collections took 7.6% of the server's CPU, and 0.7% frozen.
    gc.freeze()
    return app
