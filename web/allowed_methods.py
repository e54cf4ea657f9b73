"""``OPTIONS`` answers ``Allow`` with every method of its path.

Litestar writes the header from the methods its path had when the path's first handlers were
registered; a controller whose ``GET`` and ``POST`` share a path then answers ``Allow: OPTIONS,
POST``. The methods are read here from the app's routes as they finally are.
"""

from __future__ import annotations

from functools import cache

from litestar import Litestar
from litestar.datastructures import MutableScopeHeaders
from litestar.routes import HTTPRoute
from litestar.types import Message, Scope


async def allow_every_method(message: Message, scope: Scope) -> None:
    """A ``before_send`` hook: the ``Allow`` header of an OPTIONS answer, complete."""
    if message["type"] != "http.response.start" or scope.get("method") != "OPTIONS":
        return
    headers = MutableScopeHeaders.from_message(message)
    if "allow" not in headers:  # a CORS preflight, or a refusal
        return
    methods = _methods_by_path(scope["litestar_app"]).get(scope.get("path_template", ""))
    if methods:
        headers["Allow"] = ", ".join(methods)


@cache
def _methods_by_path(app: Litestar) -> dict[str, tuple[str, ...]]:
    return {
        route.path: tuple(sorted(route.methods))
        for route in app.routes
        if isinstance(route, HTTPRoute)
    }
