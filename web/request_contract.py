"""What a request may carry is what its operation declares: checked once for every operation of
the API document, before Litestar resolves the handler's arguments.

- A query parameter the route does not declare is refused (400), not ignored: a client that
  filters with a parameter the server does not know would otherwise read every match as if
  they were the ones it asked for.
- A JSON body is decoded strictly against the route's body type: Litestar converts bodies
  leniently (``0`` and ``1`` become booleans, ``"5"`` a number) and turns a failed constraint
  into a bare 500, so the strict decoding here is the one that refuses, with msgspec's
  message naming the field. A body that passes it converts to the same value leniently.
  A whole number written with a fraction (``10.0``) is the integer it names, as JSON Schema
  counts it: taken where an integer is due; ``10.5`` is not.

It runs as the app's ``before_request`` hook (tracing chains its span naming in front): the
hook sees each request's route handler once it is routed, which is where the declared
parameters and the body type are known; a middleware would have to read and replay the body.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.enums import RequestEncodingType
from litestar.handlers import HTTPRouteHandler
from litestar.params import BodyKwarg, ParameterKwarg
from litestar.routes import HTTPRoute

from service.errors import InvalidParameter, InvalidRequest, MalformedJson

TOKEN_IN_URL = (
    "a seat's token never goes in a URL: send it as 'Authorization: Bearer', or trade it "
    "for a ticket (POST /matches/{match_id}/stream-tickets)"
)


async def check_request(request: Request[Any, Any, Any]) -> None:
    """Refuse undeclared query parameters and a body that is not the route's body type."""
    handler = request.route_handler
    # The page, its files and the docs are no API operation: a link may carry what it likes.
    if not isinstance(handler, HTTPRouteHandler) or not handler.resolve_include_in_schema():
        return
    _check_query(request, handler)
    body_type = _body_type(handler)
    if body_type is not None:
        body = await request.body()
        if body.strip():
            _decode_strictly(body, body_type)


def _check_query(request: Request[Any, Any, Any], handler: HTTPRouteHandler) -> None:
    declared = _query_names(request.app).get(handler, frozenset())
    unknown = sorted(set(request.query_params) - declared)
    if not unknown:
        return
    if "token" in unknown:
        raise InvalidParameter(TOKEN_IN_URL)
    accepted = ", ".join(sorted(declared)) if declared else "none"
    raise InvalidParameter(
        f"unknown query parameter {', '.join(map(repr, unknown))}; "
        f"{request.method} {request.scope.get('path_template', request.url.path)} "
        f"takes: {accepted}"
    )


@cache
def _query_names(app: Litestar) -> dict[HTTPRouteHandler, frozenset[str]]:
    # Litestar's own model of each handler's arguments, its dependencies' included.
    return {
        handler: frozenset(param.field_alias for param in model.expected_query_params)
        for route in app.routes
        if isinstance(route, HTTPRoute)
        for handler, model in route.route_handler_map.values()
    }


@cache
def _body_type(handler: HTTPRouteHandler) -> Any:
    data = handler.parsed_fn_signature.parameters.get("data")
    if data is None or isinstance(data.kwarg_definition, ParameterKwarg) or data.is_any:
        return None
    body = data.kwarg_definition
    if isinstance(body, BodyKwarg) and body.media_type != RequestEncodingType.JSON:
        return None  # a form or raw bytes: Litestar reads it as it is
    return data.annotation


def _decode_strictly(body: bytes, body_type: Any) -> None:
    try:
        msgspec.json.decode(body, type=body_type, strict=True)
    except msgspec.ValidationError as error:
        # A refusal may come before the whole body is read: it may not even be JSON.
        try:
            msgspec.convert(_whole_numbers(msgspec.json.decode(body)), body_type, strict=True)
        except (msgspec.ValidationError, msgspec.DecodeError):
            raise InvalidRequest(f"the body does not fit: {error}") from None
    except msgspec.DecodeError as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None


# Beyond this a float no longer names one integer exactly.
EXACT = 2**53


def _whole_numbers(value: Any) -> Any:
    """``value`` with every float that names a whole number as that integer."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= EXACT:
        return int(value)
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    return value
