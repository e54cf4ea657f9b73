"""ETags of a seat's view: the match version and the seat, e.g. ``"v12-s0"``."""

from __future__ import annotations

import re

from service.errors import InvalidParameter

_TAG = re.compile(r'^(?:W/)?"?v?(\d{1,18})(?:-s(\d))?"?$')


def view_etag(version: int, seat: int) -> str:
    return f'"v{version}-s{seat}"'


def version_of(header: str | None) -> int | None:
    """The version an If-Match / If-None-Match header names; None for none or ``*``."""
    tag = tag_of(header)
    return None if tag is None else tag[0]


def tag_of(header: str | None) -> tuple[int, int | None] | None:
    """The version and the seat (None when it names none) an ETag header names; None for
    none or ``*``."""
    if header is None or header.strip() == "*":
        return None
    match = _TAG.match(header.strip())
    if match is None:
        raise InvalidParameter(f'{header!r} is not an ETag of this API (they look like "v12-s0")')
    seat = match.group(2)
    return int(match.group(1)), None if seat is None else int(seat)
