"""``GET /metrics`` and what the web layer counts: each request by its route's template, and
each problem+json answer by its kind.

A route's template (``/matches/{match_id}/commands``), never the path itself: the path holds
match ids, and anything a client sends would otherwise become a series of its own. A request
no route matched is counted as a problem (404, 405) only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from litestar import Request, Response, get
from litestar.datastructures import State
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.ports.metrics import Metrics
from web.problems import Problem

ExceptionHandler = Callable[[Request[Any, Any, Any], Exception], Response[Problem]]


class Exposition(Protocol):
    """The metrics in a scraper's format (from the composition root's metrics adapter)."""

    content_type: str

    def exposition(self) -> bytes: ...


class MetricsMiddleware(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        started = time.perf_counter()
        status = 500

        async def send_and_note_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await next_app(scope, receive, send_and_note_status)
        finally:
            route = scope.get("path_template") or "unmatched"
            method = str(scope.get("method"))
            self._metrics.request(method, route, status, time.perf_counter() - started)


def counting_problems(handler: ExceptionHandler, metrics: Metrics) -> ExceptionHandler:
    """``handler``, counting each problem it answers with by kind and status."""

    def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
        response = handler(request, exc)
        problem = response.content
        metrics.problem(problem.type.rpartition("/")[2], problem.status)
        return response

    return handle


@get("/metrics", include_in_schema=False, cache_control=None, sync_to_thread=False)
def metrics_endpoint(state: State) -> Response[bytes]:
    """Every metric family, in Prometheus' text format."""
    exposition: Exposition = state.metrics
    return Response(exposition.exposition(), media_type=exposition.content_type)
