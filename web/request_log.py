"""Structured logs: one JSON object per line, one line per request.

A request line holds the method, path, status, duration and client address; never a header or
a body, so no token and no card ends up in a log.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

request_log = logging.getLogger("gin.requests")

_STANDARD_ATTRS = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD_ATTRS})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("gin")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


class RequestLogMiddleware(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

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
            log_request(scope, status, time.perf_counter() - started)


def log_request(scope: Scope, status: int, seconds: float | None) -> None:
    client = scope.get("client")
    request_log.info(
        "request",
        extra={
            "method": scope.get("method"),
            "path": scope.get("path"),
            "status": status,
            "duration_ms": None if seconds is None else round(seconds * 1000, 2),
            "client": client[0] if client else None,
        },
    )
