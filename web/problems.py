"""RFC 9457 problem details: the one place where every refusal becomes an HTTP response.

Each error kind has a stable ``type`` (``/problems/<kind>``) that clients can switch on, and a
``detail`` a person can read. Unexpected failures become a generic 500 whose detail says
nothing about the match: an exception message may hold state no seat should see.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any, TypeVar

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, InternalServerException, ValidationException

from domain.errors import DomainError
from service.errors import InvalidParameter, InvalidRequest, MalformedJson, ServiceError
from web.limits import ClientLeft

PROBLEM_MEDIA_TYPE = "application/problem+json"
DISCONNECTED = "client disconnected prematurely"

_log = logging.getLogger("gin.errors")
_E = TypeVar("_E", bound=BaseException)
# Reconnecting takes under a second once the database is back (adapters/postgres/pool.py).
RETRY_AFTER_SECONDS = 1
# Not an HTTP status: nginx's "client closed request", only ever seen in our request log.
CLIENT_LEFT = 499

# The one table from refusals to HTTP statuses: every domain and service error kind.
STATUS_OF_KIND: dict[str, int] = {
    # the rules
    "domain-error": 422,
    "invalid-command": 422,
    "invalid-notation": 422,
    "invalid-options": 422,
    "illegal-move": 422,
    "not-your-turn": 422,
    "match-over": 409,
    "match-already-ended": 409,
    # the request itself
    "service-error": 400,
    "malformed-json": 400,
    "invalid-parameter": 400,
    "invalid-request": 422,
    "unknown-command": 422,
    # who is asking
    "missing-token": 401,
    "invalid-stream-ticket": 401,
    "wrong-token": 403,
    "not-your-seat": 403,
    "origin-not-allowed": 403,
    "missing-operator-key": 401,
    "unknown-operator-key": 401,
    "seat-token-not-operator-key": 403,
    "missing-scope": 403,
    "not-your-match": 403,
    "missing-credential": 401,
    "wrong-credential": 401,
    "invite-not-for-you": 403,
    # what is asked for
    "match-not-found": 404,
    "invite-not-found": 404,
    "webhook-not-found": 404,
    "version-not-found": 404,
    "log-too-short": 404,
    "hand-not-finished": 404,
    "player-not-found": 404,
    "not-queued": 404,
    "invite-expired": 410,
    "unknown-position": 400,
    # when it is asked
    "waiting-for-opponent": 409,
    "version-conflict": 409,
    "version-in-play": 409,
    "stale-version": 412,
    "deadline-passed": 409,
    "match-not-started": 409,
    "delivery-not-failed": 409,
    "round-started": 409,
    "idempotency-key-reused": 422,
    "already-queued": 409,
    "rematch-not-available": 409,
    # how a match is set up
    "invalid-bot-seats": 422,
    "unknown-commitment": 422,
    "entropy-before-commitment": 422,
    # who a player is
    "display-name-too-long": 422,
    "invalid-display-name": 422,
    # whether it can be done now
    "database-unavailable": 503,
    "history-missing": 503,
    # tournaments: refs, retries, rounds, whose match, where webhooks may go
    "external-ref-taken": 409,
    "idempotency-key-in-flight": 409,
    "idempotency-window-over": 422,
    "round-not-found": 404,
    "invalid-round": 422,
    "webhook-url-refused": 422,
    # accounts: sessions, sign-in, linked identities
    "access-token-expired": 401,
    "refresh-token-unknown": 401,
    "refresh-token-expired": 401,
    "refresh-token-reused": 401,
    "session-revoked": 401,
    "session-required": 401,
    "session-not-found": 404,
    "id-token-expired": 401,
    "id-token-wrong-audience": 401,
    "unknown-issuer": 401,
    "invalid-id-token": 401,
    "issuer-unavailable": 503,
    "wrong-device-secret": 401,
    "identity-taken": 409,
    "identity-not-found": 404,
    "last-identity": 409,
}
# Headers that go with a kind: when to ask again.
HEADERS_OF_KIND: dict[str, dict[str, str]] = {
    "database-unavailable": {"Retry-After": str(RETRY_AFTER_SECONDS)},
    "idempotency-key-in-flight": {"Retry-After": str(RETRY_AFTER_SECONDS)},
    "issuer-unavailable": {"Retry-After": str(RETRY_AFTER_SECONDS)},
}

# Litestar's own refusals (routing, parameters), by status.
HTTP_KINDS: dict[int, str] = {
    400: "bad-request",
    401: "missing-token",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    408: "request-timeout",
    413: "request-too-large",
    415: "unsupported-media-type",
    429: "too-many-requests",
}

# Every problem type the service answers with: the tables' kinds and the two it names itself.
ALL_KINDS = (
    frozenset(STATUS_OF_KIND)
    | frozenset(HTTP_KINDS.values())
    | {
        "client-left",
        "internal-error",
    }
)


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    type: str
    title: str
    status: int
    detail: str
    instance: str | None = None


def problem_type(kind: str) -> str:
    return f"/problems/{kind}"


def problem_response(
    request: Request[Any, Any, Any],
    *,
    kind: str,
    status: int,
    title: str,
    detail: str,
    headers: dict[str, str] | None = None,
) -> Response[Problem]:
    problem = Problem(
        type=problem_type(kind),
        title=title,
        status=status,
        detail=detail,
        instance=request.url.path,
    )
    all_headers = dict(headers or {})
    if status == 401:
        all_headers.setdefault("WWW-Authenticate", 'Bearer realm="gin"')
    return Response(problem, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=all_headers)


def handle_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    if isinstance(exc, ServiceError):
        status = STATUS_OF_KIND[exc.kind]
        return problem_response(
            request,
            kind=exc.kind,
            status=status,
            title=exc.title,
            detail=str(exc),
            headers=HEADERS_OF_KIND.get(exc.kind),
        )
    if isinstance(exc, DomainError):
        status = STATUS_OF_KIND[exc.kind]
        title = "The rules do not allow this" if status != 409 else "The match is over"
        return problem_response(request, kind=exc.kind, status=status, title=title, detail=str(exc))
    if isinstance(exc, ClientLeft) or _client_left(exc):
        _log.info("the client left before its request was read: %s", request.url.path)
        return problem_response(
            request,
            kind="client-left",
            status=CLIENT_LEFT,
            title="Client Closed Request",
            detail="the client disconnected before sending its whole request",
        )
    if isinstance(exc, ValidationException):
        if _about_body(exc):
            error: ServiceError = InvalidRequest(_validation_detail(exc))
        else:
            error = InvalidParameter(_validation_detail(exc))
        return handle_exception(request, error)
    if isinstance(exc, HTTPException) and (invalid := _cause(exc, msgspec.ValidationError)):
        # Valid JSON of the wrong shape, which Litestar reports as a bare 500.
        return handle_exception(request, InvalidRequest(f"the body does not fit: {invalid}"))
    if isinstance(exc, HTTPException) and (malformed := _cause(exc, msgspec.DecodeError)):
        return handle_exception(request, MalformedJson(f"the body is not valid JSON: {malformed}"))
    if isinstance(exc, HTTPException) and exc.status_code < 500:
        status = exc.status_code
        return problem_response(
            request,
            kind=HTTP_KINDS.get(status, "bad-request"),
            status=status,
            title=HTTPStatus(status).phrase,
            detail=exc.detail,
            headers=exc.headers,
        )
    _log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(
        request,
        kind="internal-error",
        status=500,
        title="Internal Server Error",
        detail="The server failed to handle this request; nothing was acknowledged.",
    )


def _client_left(exc: Exception) -> bool:
    # Litestar's own words when the body stops with a disconnect (if no LimitsMiddleware ran).
    return isinstance(exc, InternalServerException) and exc.detail == DISCONNECTED


def _about_body(exc: ValidationException) -> bool:
    return isinstance(exc.extra, list) and any(
        isinstance(item, dict) and item.get("source") == "body" for item in exc.extra
    )


def _cause(exc: BaseException, cause: type[_E]) -> _E | None:
    seen = exc.__cause__
    while seen is not None:
        if isinstance(seen, cause):
            return seen
        seen = seen.__cause__
    return None


def _validation_detail(exc: ValidationException) -> str:
    if isinstance(exc.extra, list) and exc.extra:
        parts = []
        for item in exc.extra:
            if isinstance(item, dict):
                key = item.get("key")
                message = item.get("message")
                parts.append(f"{key}: {message}" if key else str(message))
        if parts:
            return "; ".join(parts)
    return exc.detail
