"""Limits on what a client may send, checked before any handler sees the request.

- Integer query parameters are ASCII digits and nothing else (msgspec's lax parsing would
  take ``1e3`` for 1000), each given at most once.
- A request's body arrives within ``read_timeout`` seconds of its first byte being asked for,
  or the request is answered 408; a client that leaves before sending it all is answered
  (into the void) 499 and logged as gone, not as a server error.
- A JSON body nests at most ``MAX_JSON_DEPTH`` arrays and objects: deeper, and the decoder
  would exhaust Python's recursion limit. Every body the API takes nests a few levels.

The body's size is Litestar's ``request_max_body_size`` (413), set in ``web.app``.

An answer sent before its request's body was read (a 413, a 429, a route that takes no body)
says ``Connection: close`` (``close_after_unread_body``): the rest of the body is still on its
way, so the server cannot reuse the connection, and a client that is not told so would send
its next request down a connection about to close, and lose it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import parse_qsl

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send

from service.errors import InvalidParameter, MalformedJson

MAX_JSON_DEPTH = 32
# Every integer query parameter of the API (after, limit, at; the log proofs' sizes and event).
INTEGER_PARAMETERS = frozenset(
    {"after", "limit", "at", "size", "position", "version", "first", "second"}
)
MAX_DIGITS = 18  # anything longer is above every bound the API has
METHODS_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# In a request's ``scope["state"]`` once its whole body has been received.
BODY_READ = "gin_body_read"
_CLOSE = (b"connection", b"close")

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_OPEN = frozenset(b"[{")


class SlowBody(HTTPException):
    status_code = 408
    detail = "the request body did not arrive in time"


class ClientLeft(Exception):  # noqa: N818
    """The client disconnected before its request was read: nobody is left to answer."""


class LimitsMiddleware(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

    def __init__(self, read_timeout: float) -> None:
        self.read_timeout = read_timeout

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        if scope["query_string"]:
            check_query(scope["query_string"])
        if scope.get("method") in METHODS_WITH_BODY:
            receive = BodyReader(receive, self.read_timeout, scope.setdefault("state", {})).receive
        await next_app(scope, receive, send)


async def close_after_unread_body(message: Message, scope: Scope) -> None:
    """A ``before_send`` hook: ``Connection: close`` on an answer to a request whose body was
    announced but not all read when the answer started."""
    if message["type"] != "http.response.start" or scope.get("state", {}).get(BODY_READ):
        return
    if _announces_body(scope):
        message["headers"] = [*message.get("headers", ()), _CLOSE]


def _announces_body(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.strip() != b"0"
        if name == b"transfer-encoding":
            return True
    return False


def check_query(query: bytes) -> None:
    seen: set[str] = set()
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name not in INTEGER_PARAMETERS:
            continue
        if name in seen:
            raise InvalidParameter(f"{name} is given more than once")
        seen.add(name)
        if not (value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS):
            raise InvalidParameter(f"{name} must be a whole number in digits, not {value!r}")


class BodyReader:
    """``receive`` for one request with a body: a deadline for all of it, a client that leaves
    told apart, and the JSON nesting depth checked once it is complete."""

    __slots__ = (
        "_chunks",
        "_complete",
        "_deadline",
        "_openings",
        "_read_timeout",
        "_receive",
        "_state",
    )

    def __init__(self, receive: Receive, read_timeout: float, state: dict[str, Any]) -> None:
        self._receive = receive
        self._state = state
        self._read_timeout = read_timeout
        self._deadline: float | None = None
        self._chunks: list[bytes] = []
        self._openings = 0  # an upper bound of the depth: the exact one is needed rarely
        self._complete = False

    async def receive(self) -> ReceiveMessage:
        if self._complete:  # a server's later message (a disconnect) is none of our business
            return await self._receive()
        message = await self._receive_in_time()
        if message["type"] == "http.disconnect":
            raise ClientLeft()
        if message["type"] == "http.request":
            chunk: bytes = message.get("body", b"")
            self._chunks.append(chunk)
            self._openings += chunk.count(b"[") + chunk.count(b"{")
            if not message.get("more_body", False):
                self._complete = self._state[BODY_READ] = True
                if self._openings > MAX_JSON_DEPTH:
                    check_depth(b"".join(self._chunks))
                self._chunks = []
        return message

    async def _receive_in_time(self) -> ReceiveMessage:
        # A bare timer rather than ``asyncio.timeout``: this runs for every command, and the
        # timer is about half the cost.
        loop = asyncio.get_running_loop()
        if self._deadline is None:
            self._deadline = loop.time() + self._read_timeout
        task = asyncio.current_task()
        assert task is not None
        expired: list[bool] = []

        def expire() -> None:
            expired.append(True)
            task.cancel()

        timer = loop.call_at(self._deadline, expire)
        try:
            return await self._receive()
        except asyncio.CancelledError:
            if expired and task.uncancel() == 0:
                raise SlowBody() from None
            raise
        finally:
            timer.cancel()


def json_depth(body: bytes) -> int:
    """How deep arrays and objects nest in ``body`` (brackets in strings do not count)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub(b"", body)):
        if match.group()[0] in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def check_depth(body: bytes) -> None:
    if json_depth(body) > MAX_JSON_DEPTH:
        raise MalformedJson(f"the body nests arrays and objects more than {MAX_JSON_DEPTH} deep")
