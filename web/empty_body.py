"""Routes that take no body still read it: so its size is bounded (413), and a client that
sends something learns now rather than believing it was taken."""

from __future__ import annotations

import msgspec

from service.errors import InvalidRequest, MalformedJson


class NoFields(msgspec.Struct, forbid_unknown_fields=True):
    """Nothing: the request says all there is to say in its path and headers."""


def check_empty_body(body: bytes, what: str) -> None:
    """Refuse anything but an empty body or ``{}`` sent to ``what``."""
    if not body.strip():
        return
    try:
        msgspec.json.decode(body, type=NoFields)
    except msgspec.ValidationError as error:
        raise InvalidRequest(f"{what} takes an empty body or {{}}: {error}") from None
    except msgspec.DecodeError as error:
        raise MalformedJson(f"the body is not valid JSON: {error}") from None
