"""Optional OpenTelemetry tracing (``GIN_TRACING``): one server span per request, from
Litestar's OpenTelemetry plugin, named after the route it reached (``POST
/matches/{match_id}/commands``), never after the raw path, which would make a name per
match.

Spans go to the tracer provider the process has (``opentelemetry-instrument gin serve``, or a
provider set up by the deployment); if it has none, to one that prints them to stdout, so
switching tracing on shows something. What a span carries is the ASGI instrumentation's
defaults: method, route, status, host, user agent; no request or response headers (so no
token), no bodies (so no cards), and no query string values beyond the API's own numbers.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.config.app import AppConfig
from litestar.plugins import InitPlugin
from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin
from litestar.types import Scope
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
from opentelemetry.semconv.attributes.http_attributes import HTTP_ROUTE

SERVICE_NAME = "gin-rummy"
# Probes and scrapes come every few seconds and say nothing about play.
UNTRACED = ["/health", "/metrics"]


class RouteSpanNames(InitPlugin):
    """Names each span after its route once routed, then runs the app's own hook (so a refused
    request's span is named too): the OpenTelemetry middleware starts the span before routing.
    (Not a subclass of Litestar's plugin: the app finds that one by its class name.)"""

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        then = app_config.before_request

        async def name_span_then_check(request: Request[Any, Any, Any]) -> Any:
            name_span(request)
            return None if then is None else await then(request)

        app_config.before_request = name_span_then_check
        return app_config


def tracing_plugins(tracer_provider: trace.TracerProvider | None = None) -> list[InitPlugin]:
    """The plugins that trace every request to ``tracer_provider`` (default: as above)."""
    config = OpenTelemetryConfig(
        tracer_provider=tracer_provider or _process_provider(),
        scope_span_details_extractor=method_only,
        exclude=UNTRACED,
        # The ASGI send/receive sub-spans only time the socket; one span per request is enough.
        exclude_spans=["receive", "send"],
    )
    return [OpenTelemetryPlugin(config), RouteSpanNames()]


def method_only(scope: Scope) -> tuple[str, dict[str, Any]]:
    """The span's name before routing: the method (as OpenTelemetry names a request with no
    route), not the path."""
    return str(scope.get("method", "HTTP")), {}


def name_span(request: Request[Any, Any, Any]) -> None:
    route = f"{request.method} {request.scope.get('path_template', '')}"
    span = trace.get_current_span()
    span.update_name(route)
    span.set_attribute(HTTP_ROUTE, route)


def _process_provider() -> trace.TracerProvider:
    provider = trace.get_tracer_provider()
    if isinstance(provider, TracerProvider):  # an SDK provider the deployment set up
        return provider
    printing = TracerProvider(resource=Resource.create({"service.name": SERVICE_NAME}))
    printing.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    return printing
