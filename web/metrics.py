"""``GET /metrics`` and what the web layer counts: each request by its route's template (in
``web.request_log``'s middleware, beside the request's log line), and each problem+json answer
by its kind.

A route's template (``/matches/{match_id}/commands``), never the path itself: the path holds
match ids, and anything a client sends would otherwise become a series of its own. A request
no route matched is counted as a problem (404, 405) only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from litestar import Request, Response, get
from litestar.datastructures import State

from service.ports.metrics import Metrics
from web.problems import Problem

ExceptionHandler = Callable[[Request[Any, Any, Any], Exception], Response[Problem]]


class Exposition(Protocol):
    """The metrics in a scraper's format (from the composition root's metrics adapter)."""

    content_type: str

    def exposition(self) -> bytes: ...


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
