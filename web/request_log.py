"""Structured logs: one JSON object per line, one line per request.

A request line holds the method, path, status, duration and client address; never a header or
a body, so no token and no card ends up in a log.

A request line is the one log line written for every request, so it is made cheaply: its
fields are encoded once, when it is logged (no scan of the record for ``extra`` fields), the
record skips the caller lookup, and the time is formatted once a second. It reads the same as
any other line ``JsonFormatter`` writes.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from litestar import Request, Response
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.ports.metrics import Metrics

request_log = logging.getLogger("gin.requests")
# The app's one exception handler (``web.problems``, counted by ``web.metrics``).
ProblemHandler = Callable[[Request[Any, Any, Any], Exception], Response[Any]]

_STANDARD_ATTRS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
# The attribute of a request's record that holds its fields, encoded (see ``log_request``).
_FIELDS = "gin_request_fields"
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S"
_encode = json.JSONEncoder(default=str).encode


class JsonFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__()
        self._second = -1
        self._time = ""

    def format(self, record: logging.LogRecord) -> str:
        fields: str | None = record.__dict__.get(_FIELDS)
        if fields is not None and not record.exc_info:
            # As the general case below writes it, key for key and byte for byte.
            return (
                f'{{"time": "{self._formatted_time(record)}", "level": '
                f'{_encode(record.levelname.lower())}, "logger": {_encode(record.name)}, '
                f'"message": {_encode(record.getMessage())}, {fields}}}'
            )
        entry: dict[str, Any] = {
            "time": self._formatted_time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD_ATTRS})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)

    def _formatted_time(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        if second != self._second:
            self._second, self._time = second, self.formatTime(record, _TIME_FORMAT)
        return self._time


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("gin")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


class RequestLogMiddleware(ASGIMiddleware):
    """Each request's line in the log, and its count and duration in the metrics: one wrapper
    notes the status for both.

    A refusal raised by a middleware inside this one (a rate limit's 429, a bad query's 400)
    is answered here, by the app's own handler: Litestar would otherwise answer it outside
    every middleware, after this one had noted a 500 that was never sent."""

    scopes = (ScopeType.HTTP,)

    def __init__(self, metrics: Metrics, problems: ProblemHandler) -> None:
        self._metrics = metrics
        self._problems = problems

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        started = time.perf_counter()
        status = 500

        started_response = False

        async def send_and_note_status(message: Message) -> None:
            nonlocal status, started_response
            if message["type"] == "http.response.start":
                status, started_response = message["status"], True
            await send(message)

        try:
            try:
                await next_app(scope, receive, send_and_note_status)
            except Exception as error:
                if started_response:
                    raise
                request: Request[Any, Any, Any] = Request(scope, receive)
                response = self._problems(request, error)
                await response.to_asgi_response(app=None, request=request)(
                    scope, receive, send_and_note_status
                )
        finally:
            seconds = time.perf_counter() - started
            # A route's template, never the path itself: the path holds match ids.
            route = scope.get("path_template") or "unmatched"
            self._metrics.request(str(scope.get("method")), route, status, seconds)
            log_request(scope, status, seconds)


def log_request(scope: Scope, status: int, seconds: float | None) -> None:
    if not request_log.isEnabledFor(logging.INFO):
        return
    client = scope.get("client")
    fields = {
        "method": scope.get("method"),
        "path": scope.get("path"),
        "status": status,
        "duration_ms": None if seconds is None else round(seconds * 1000, 2),
        "client": client[0] if client else None,
    }
    # Made here rather than by ``Logger.info``: that looks up the caller's file and line, which
    # no line shows, and ``extra`` would have every formatter scan the record for the fields.
    record = logging.LogRecord(request_log.name, logging.INFO, __file__, 0, "request", None, None)
    setattr(record, _FIELDS, _encode(fields)[1:-1])
    request_log.handle(record)
