"""Cross-origin calls from web pages (CORS): Litestar's own handling, for the origins the
settings name, with its refusals of a preflight answered as problem+json like every other."""

from __future__ import annotations

import msgspec
from litestar.config.cors import CORSConfig
from litestar.enums import ScopeType
from litestar.types import Message, Scope

from service.errors import OriginNotAllowed
from web.problems import PROBLEM_MEDIA_TYPE, STATUS_OF_KIND, Problem, problem_type

REFUSED_PREFLIGHT = 400  # what Litestar answers a preflight it refuses, in plain text
REFUSED = "gin.cors_refused"


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    """None when no other origin is named: the service's own page needs no CORS."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match"],
        expose_headers=["ETag", "Gin-Receipt", "Retry-After"],
    )


async def refused_preflight_as_problem(message: Message, scope: Scope) -> None:
    """A ``before_send`` hook: rewrites Litestar's plain-text refusal of a preflight (an origin,
    method or header not allowed) into a problem, in place."""
    if scope["type"] != ScopeType.HTTP or scope["method"] != "OPTIONS":
        return
    if message["type"] == "http.response.start":
        if message["status"] == REFUSED_PREFLIGHT and _is_preflight(scope):
            body = _problem(scope["path"])
            scope.setdefault("state", {})[REFUSED] = body
            message["status"] = STATUS_OF_KIND[OriginNotAllowed.kind]
            message["headers"] = [
                (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
            ]
    elif message["type"] == "http.response.body":
        refusal: bytes | None = scope.get("state", {}).get(REFUSED)
        if refusal is not None:
            message["body"] = refusal
            message["more_body"] = False


def _is_preflight(scope: Scope) -> bool:
    names = {name.lower() for name, _ in scope["headers"]}
    return b"origin" in names and b"access-control-request-method" in names


def _problem(path: str) -> bytes:
    error = OriginNotAllowed(
        "cross-origin calls are allowed only from the origins in GIN_CORS_ORIGINS, with the "
        "methods and headers the API takes"
    )
    status = STATUS_OF_KIND[error.kind]
    problem = Problem(
        type=problem_type(error.kind),
        title=error.title,
        status=status,
        detail=str(error),
        instance=path,
    )
    return msgspec.json.encode(problem)
